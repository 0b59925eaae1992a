package dev.layerfold.e2e.dedup;

import dev.layerfold.e2e.distributed.Backends;
import java.util.Map;

/**
 * The dedup round trip on S3 + Redis with two registry processes on one bucket and one Redis, both
 * running dedup workers on the shared queue: images are pushed through the first, and pulled through the
 * second, which restores layers the first (or itself) deduplicated.
 */
class DedupRoundTripOnS3AndRedisTest extends DedupRoundTripContract {

    @Override
    Map<String, String> backend() {
        return Backends.newS3AndRedis();
    }

    @Override
    int nodeCount() {
        return 2;
    }
}
