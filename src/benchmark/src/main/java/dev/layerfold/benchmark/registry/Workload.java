package dev.layerfold.benchmark.registry;

import dev.layerfold.e2e.blob.BlobClient;
import dev.layerfold.e2e.process.RegistryProcess;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The workload the suite runs against each registry, through the same {@link BlobClient} for both
 * (large pulls through {@link CurlDownload}): set-up pushes the blobs that are read back, then each
 * round pulls, gets and pushes while timing.
 */
final class Workload implements AutoCloseable {

    static final long LARGE_BLOB_SIZE = 512L << 20;
    static final long PUSH_SIZE = 256L << 20;
    static final long CHUNK_SIZE = 8L << 20;
    static final int SMALL_BLOB_SIZE = 4 << 10;
    static final int SMALL_BLOBS = 250;
    private static final int LARGE_PULLS_PER_ROUND = 2;
    private static final String REPOSITORY = "bench/registry";

    private final RegistryProcess registry;
    private final BlobClient client;
    private final SeededBlob largeBlob;
    private final List<SeededBlob> smallBlobs;
    private final Samples samples = new Samples();

    Workload(RegistryProcess registry, SeededBlob largeBlob, List<SeededBlob> smallBlobs) {
        this.registry = registry;
        this.client = new BlobClient(registry.baseUri());
        this.largeBlob = largeBlob;
        this.smallBlobs = smallBlobs;
    }

    String name() {
        return registry.name();
    }

    Samples samples() {
        return samples;
    }

    /** Pushes what the rounds read, untimed. */
    void setUp() throws IOException {
        client.pushMonolithic(REPOSITORY, largeBlob.digest(), largeBlob.size(), largeBlob.content());
        for (SeededBlob small : smallBlobs) {
            client.pushMonolithic(REPOSITORY, small.digest(), small.size(), small.content());
        }
    }

    /** One timed round; {@code monolithic} and {@code chunked} are blobs this registry has not seen. */
    void round(SeededBlob monolithic, SeededBlob chunked, boolean record) throws IOException {
        for (int i = 0; i < LARGE_PULLS_PER_ROUND; i++) {
            transfer(Metric.LARGE_PULL, Metric.LARGE_PULL_CPU, largeBlob.size(), record,
                    () -> checkSize(CurlDownload.discard(blobUri(largeBlob)), largeBlob));
        }

        List<Double> latencies = new ArrayList<>(smallBlobs.size());
        Duration cpuBefore = registry.cpuTime();
        for (SeededBlob small : smallBlobs) {
            long start = System.nanoTime();
            long size = client.pullDiscarding(REPOSITORY, small.digest());
            latencies.add((System.nanoTime() - start) / 1e6);
            checkSize(size, small);
        }
        double cpuMicros = registry.cpuTime().minus(cpuBefore).toNanos() / 1e3;
        latencies.forEach(latency -> record(record, Metric.SMALL_GET, latency));
        record(record, Metric.SMALL_GET_CPU, cpuMicros / smallBlobs.size());

        transfer(Metric.MONOLITHIC_PUSH, Metric.MONOLITHIC_PUSH_CPU, monolithic.size(), record,
                () -> client.pushMonolithic(REPOSITORY, monolithic.digest(), monolithic.size(), monolithic.content()));
        transfer(Metric.CHUNKED_PUSH, Metric.CHUNKED_PUSH_CPU, chunked.size(), record,
                () -> client.pushChunked(REPOSITORY, chunked.digest(), chunked.size(), chunked.content(), CHUNK_SIZE));
    }

    private interface Transfer {
        void run() throws IOException;
    }

    /** Runs one transfer of {@code bytes}, recording its wall-clock MB/s and the registry's CPU ms per MB. */
    private void transfer(Metric throughput, Metric cpu, long bytes, boolean record, Transfer transfer)
            throws IOException {
        Duration cpuBefore = registry.cpuTime();
        long start = System.nanoTime();
        transfer.run();
        double seconds = (System.nanoTime() - start) / 1e9;
        double cpuMillis = registry.cpuTime().minus(cpuBefore).toNanos() / 1e6;
        double megabytes = bytes / 1e6;
        record(record, throughput, megabytes / seconds);
        record(record, cpu, cpuMillis / megabytes);
    }

    private void record(boolean record, Metric metric, double value) {
        if (record) {
            samples.add(metric, value);
        }
    }

    private URI blobUri(SeededBlob blob) {
        return registry.baseUri().resolve("/v2/" + REPOSITORY + "/blobs/" + blob.digest());
    }

    private void checkSize(long size, SeededBlob expected) {
        if (size != expected.size()) {
            throw new IllegalStateException(registry + " served " + size + " bytes of " + expected.digest()
                    + ", which has " + expected.size());
        }
    }

    @Override
    public void close() {
        client.close();
    }
}
