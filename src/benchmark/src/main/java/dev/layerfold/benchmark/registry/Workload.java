package dev.layerfold.benchmark.registry;

import dev.layerfold.e2e.blob.BlobClient;
import dev.layerfold.e2e.process.RegistryProcess;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The workload the suite runs against each registry, through the same {@link BlobClient} for both:
 * set-up pushes the blobs that are read back, then each round pulls, gets and pushes while timing.
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
            long start = System.nanoTime();
            long size = client.pullDiscarding(REPOSITORY, largeBlob.digest());
            record(record, Metric.LARGE_PULL, megabytesPerSecond(checkSize(size, largeBlob), start));
        }
        List<Double> latencies = new ArrayList<>(smallBlobs.size());
        for (SeededBlob small : smallBlobs) {
            long start = System.nanoTime();
            long size = client.pullDiscarding(REPOSITORY, small.digest());
            latencies.add((System.nanoTime() - start) / 1e6);
            checkSize(size, small);
        }
        latencies.forEach(latency -> record(record, Metric.SMALL_GET, latency));

        long start = System.nanoTime();
        client.pushMonolithic(REPOSITORY, monolithic.digest(), monolithic.size(), monolithic.content());
        record(record, Metric.MONOLITHIC_PUSH, megabytesPerSecond(monolithic.size(), start));

        start = System.nanoTime();
        client.pushChunked(REPOSITORY, chunked.digest(), chunked.size(), chunked.content(), CHUNK_SIZE);
        record(record, Metric.CHUNKED_PUSH, megabytesPerSecond(chunked.size(), start));
    }

    private void record(boolean record, Metric metric, double value) {
        if (record) {
            samples.add(metric, value);
        }
    }

    private long checkSize(long size, SeededBlob expected) {
        if (size != expected.size()) {
            throw new IllegalStateException(registry + " served " + size + " bytes of " + expected.digest()
                    + ", which has " + expected.size());
        }
        return size;
    }

    private static double megabytesPerSecond(long bytes, long startNanos) {
        return bytes / 1e6 / ((System.nanoTime() - startNanos) / 1e9);
    }

    @Override
    public void close() {
        client.close();
    }
}
