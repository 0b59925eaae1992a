package dev.layerfold.e2e.distributed;

import java.util.Map;

/** Kill -9 mid-push on S3 + Redis: the bucket and Redis outlive the node, as in production. */
class KillDuringPushOnS3AndRedisTest extends KillDuringPushContract {

    @Override
    Map<String, String> backend() {
        return Backends.newS3AndRedis();
    }
}
