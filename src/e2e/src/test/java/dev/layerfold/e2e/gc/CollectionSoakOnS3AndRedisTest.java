package dev.layerfold.e2e.gc;

import dev.layerfold.e2e.distributed.Backends;
import java.util.Map;

/** The soak on two nodes sharing one bucket and one Redis, each collecting (one at a time, by the lease). */
class CollectionSoakOnS3AndRedisTest extends CollectionSoakContract {

    @Override
    Map<String, String> backend() {
        return Backends.newS3AndRedis();
    }

    @Override
    int nodeCount() {
        return 2;
    }
}
