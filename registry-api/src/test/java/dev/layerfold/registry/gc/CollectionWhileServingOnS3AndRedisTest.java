package dev.layerfold.registry.gc;

import org.springframework.test.context.TestPropertySource;

/** The collector's races on S3 and Redis, as several registry processes share them. */
@TestPropertySource(properties = "layerfold.test.backend=s3-redis")
class CollectionWhileServingOnS3AndRedisTest extends CollectionWhileServingTest {
}
