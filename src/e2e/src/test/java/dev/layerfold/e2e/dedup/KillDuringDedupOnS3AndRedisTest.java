package dev.layerfold.e2e.dedup;

import dev.layerfold.e2e.distributed.Backends;
import java.nio.file.Path;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Kill -9 during dedup on S3 + Redis: two processes on one bucket and one Redis, each running a dedup
 * worker on the shared queue, either of them killed; the other goes on, and takes over the killed one's
 * layer when its lease runs out.
 */
class KillDuringDedupOnS3AndRedisTest extends KillDuringDedupContract {

    @Override
    Map<String, String> backend() {
        return Backends.newS3AndRedis();
    }

    @Override
    int nodeCount() {
        return 2;
    }

    /** The bytes are in the bucket, which the test does not list. */
    @Override
    OptionalLong blobStoreBytes(Path dataDir) {
        return OptionalLong.empty();
    }
}
