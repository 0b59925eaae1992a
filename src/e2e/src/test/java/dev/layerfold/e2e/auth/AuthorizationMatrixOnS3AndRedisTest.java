package dev.layerfold.e2e.auth;

import dev.layerfold.e2e.distributed.Backends;
import java.util.Map;

/** The authorization matrix on S3 (S3Proxy or MinIO) and Redis. */
class AuthorizationMatrixOnS3AndRedisTest extends AuthorizationMatrixContract {

    @Override
    Map<String, String> backend() {
        return Backends.newS3AndRedis();
    }
}
