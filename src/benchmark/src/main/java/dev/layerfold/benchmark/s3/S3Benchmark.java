package dev.layerfold.benchmark.s3;

import dev.layerfold.benchmark.Benchmark;
import dev.layerfold.benchmark.BenchmarkReport;
import dev.layerfold.benchmark.WorkDirectory;
import dev.layerfold.benchmark.registry.PeerComparison;
import dev.layerfold.e2e.distributed.S3AndRedisBackend;
import dev.layerfold.e2e.process.LayerfoldProcess;
import dev.layerfold.e2e.process.ReferenceRegistryProcess;
import dev.layerfold.e2e.process.RegistryProcess;
import dev.layerfold.storage.testserver.RedisServer;
import dev.layerfold.storage.testserver.S3Server;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The registry suite's workload through Layerfold on S3 + Redis and through the reference registry
 * ({@code docker-registry}) on its S3 driver, both against the same local S3 server (MinIO in a
 * container where Docker runs, S3Proxy otherwise), each in a bucket of its own. Both then pay for the
 * same server, so the ratios compare how the registries use S3.
 */
public final class S3Benchmark implements Benchmark {

    private static final String SUITE = "s3";
    private static final String LAYERFOLD_HEAP = "1g";
    private static final int WARMUP_ROUNDS = 1;
    private static final int MEASURED_ROUNDS = 3;

    @Override
    public String name() {
        return SUITE;
    }

    @Override
    public void run(BenchmarkReport report) throws Exception {
        Path work = Files.createTempDirectory("layerfold-s3-benchmark-");
        try {
            PeerComparison comparison = PeerComparison.prepare(WARMUP_ROUNDS, MEASURED_ROUNDS);
            S3Server s3 = S3Server.shared();
            Path logs = work.resolve("logs");
            try (RegistryProcess layerfold = LayerfoldProcess.start(LAYERFOLD_HEAP, work.resolve("layerfold"), logs,
                    List.of(), layerfoldOnS3AndRedis(s3));
                 RegistryProcess reference = ReferenceRegistryProcess.startOnS3(s3.endpoint(), s3.region(),
                         s3.newBucket(), s3.accessKey(), s3.secretKey(), work.resolve("reference"), logs)) {
                System.out.println("started " + layerfold + " and " + reference + ", both on S3 at " + s3.endpoint());
                comparison.run(SUITE, layerfold, reference, report);
            }
        } finally {
            WorkDirectory.deleteRecursively(work);
        }
    }

    private static Map<String, String> layerfoldOnS3AndRedis(S3Server s3) {
        return S3AndRedisBackend.properties(s3.endpoint(), s3.region(), s3.newBucket(), s3.accessKey(),
                s3.secretKey(), RedisServer.shared().url(), RedisServer.newNamespace());
    }
}
