package dev.layerfold.e2e.clients;

import dev.layerfold.e2e.distributed.Backends;
import java.util.Map;

/**
 * The client matrix on S3 + Redis, two registry processes on one bucket and one Redis: clients push
 * through the first and pull through the second, which rebuilds the layers either deduplicated.
 */
class ClientMatrixOnS3AndRedisTest extends ClientMatrixContract {

    @Override
    Map<String, String> backend() {
        return Backends.newS3AndRedis();
    }

    @Override
    int nodeCount() {
        return 2;
    }

    @Override
    String backendName() {
        return "S3 + Redis";
    }
}
