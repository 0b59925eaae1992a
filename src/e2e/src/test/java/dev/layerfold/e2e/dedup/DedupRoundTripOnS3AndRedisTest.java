package dev.layerfold.e2e.dedup;

import dev.layerfold.e2e.distributed.Backends;
import dev.layerfold.e2e.distributed.LayerfoldNode;
import dev.layerfold.e2e.process.RegistryProcess;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dedup round trip on S3 + Redis with two registry processes on one bucket and one Redis, both
 * running dedup workers on the shared queue: images are pushed through the first, and pulled through the
 * second, which restores layers the first (or itself) deduplicated.
 */
class DedupRoundTripOnS3AndRedisTest extends DedupRoundTripContract {

    private LayerfoldNode first;
    private LayerfoldNode second;

    @BeforeAll
    void startTwoNodesOnOneBucketAndOneRedis(@TempDir Path data) throws InterruptedException {
        List<LayerfoldNode> nodes = LayerfoldNode.startTogether(List.of(data.resolve("first"), data.resolve("second")),
                Backends.newS3AndRedis());
        first = nodes.get(0);
        second = nodes.get(1);
    }

    @AfterAll
    void stopNodes() throws InterruptedException {
        if (first != null) {
            first.close();
        }
        if (second != null) {
            second.close();
        }
    }

    @Override
    RegistryProcess pushNode() {
        return first.process();
    }

    @Override
    RegistryProcess pullNode() {
        return second.process();
    }
}
