package dev.layerfold.dedup.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.dedup.codec.LayerRebuilder;
import dev.layerfold.dedup.codec.LayerSplitter;
import dev.layerfold.dedup.codec.identify.StandardEncoders;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.dedup.DedupIndex;
import dev.layerfold.storage.dedup.DedupQueue;
import dev.layerfold.storage.dedup.LayerTask;
import dev.layerfold.storage.embedded.SqliteMetadataStore;
import dev.layerfold.storage.filesystem.FilesystemBlobStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import dev.layerfold.storage.dedup.LayerState;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DedupWorkerTest {

    private static final String GZIP_LAYER = "application/vnd.oci.image.layer.v1.tar+gzip";

    @TempDir
    Path dir;

    private FilesystemBlobStore blobs;
    private SqliteMetadataStore metadata;
    private DedupIndex index;
    private DedupQueue queue;

    @BeforeEach
    void stores() throws IOException {
        blobs = new FilesystemBlobStore(dir.resolve("data"));
        metadata = new SqliteMetadataStore(dir.resolve("metadata.db"));
        index = metadata.dedupIndex();
        queue = metadata.dedupQueue();
    }

    @AfterEach
    void close() {
        metadata.close();
    }

    @Test
    void aLayerHotWhenFirstTakenWaitsForTheColdOnesAndIsDecidedAtItsNextTurnStillHot() throws Exception {
        Digest hot = pushAndQueue("a layer many pull");
        Digest cold = pushAndQueue("a layer nobody pulls");
        metadata.layerPulls().record(Map.of(hot, 20L));
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        LayerDeduplicator deduplicator = new LayerDeduplicator(blobs, index, metadata.gcIndex(), new LayerSplitter(StandardEncoders.identifier()),
                new LayerRebuilder(StandardEncoders.factory()),
                new DedupSettings(dir.resolve("scratch"), 3, 64 << 20, Duration.ofMinutes(1), DedupLimits.DEFAULT),
                IntactCopyPolicy.NO_COPIES);

        try (DedupWorker worker = new DedupWorker(queue, index, deduplicator, new DedupMetrics(meters, index, queue),
                () -> false, new ColdFirst(metadata.layerPulls(), 10, Duration.ZERO), Duration.ofMinutes(1))) {
            assertThat(worker.work("w")).isTrue();
            assertThat(index.layer(hot)).as("put back, not decided").isEmpty();
            assertThat(meters.counter("layerfold.dedup.tasks.deferred").count()).isEqualTo(1);

            assertThat(worker.work("w")).isTrue();
            assertThat(index.layer(cold)).as("the cold layer, queued after it, went first").isPresent();
            assertThat(index.layer(hot)).isEmpty();

            assertThat(worker.work("w")).isTrue();
            assertThat(index.layer(hot)).as("decided at its next turn, hot as it still is").isPresent();
            assertThat(worker.work("w")).isFalse();
            assertThat(queue.backlog()).isZero();
            assertThat(meters.counter("layerfold.dedup.tasks.deferred").count()).as("once").isEqualTo(1);
        }
    }

    @Test
    void aPushArrivingWhileALargeLayerIsDeduplicatedPausesTheWorkerUntilThePushEnds() throws Exception {
        Digest layer = pushAndQueue(gzipLayer(new Random(7), 4 << 20));
        AtomicBoolean pushInFlight = new AtomicBoolean();
        AtomicInteger checks = new AtomicInteger();
        // The first piece is split with the registry idle; the push arrives before the second.
        BooleanSupplier busy = () -> {
            if (checks.incrementAndGet() == 2) {
                pushInFlight.set(true);
            }
            return pushInFlight.get();
        };
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        YieldToClients yielding = new YieldToClients(busy, Duration.ofMinutes(10)).register(meters, "dedup");
        ExecutorService thread = Executors.newSingleThreadExecutor();
        try (DedupWorker worker = worker(meters, yielding)) {
            Future<Boolean> working = thread.submit(() -> worker.work("w"));

            awaitUntil(() -> yielding.pausedNow() == 1);
            assertThat(meters.get("layerfold.dedup.yield.paused.threads").gauge().value()).isEqualTo(1);
            assertThat(working).as("paused mid-layer, not finished").isNotDone();
            assertThat(index.layer(layer)).as("not decided while the push is served").isEmpty();

            pushInFlight.set(false);
            assertThat(working.get(2, TimeUnit.MINUTES)).isTrue();
            assertThat(index.layer(layer)).get().isInstanceOf(LayerState.Deduplicated.class);
            assertThat(yielding.pausedNow()).isZero();
            assertThat(meters.get("layerfold.dedup.yield.pauses").functionCounter().count()).isGreaterThanOrEqualTo(1);
            assertThat(meters.get("layerfold.dedup.yield.paused").functionCounter().count()).isPositive();
        } finally {
            thread.shutdownNow();
        }
    }

    @Test
    void aRegistryNeverIdleStillHasItsLayersDeduplicatedOnePieceAfterEachLongestPause() throws Exception {
        Digest layer = pushAndQueue(gzipLayer(new Random(8), 1 << 20));
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        YieldToClients yielding = new YieldToClients(() -> true, Duration.ofMillis(20)).register(meters, "dedup");
        try (DedupWorker worker = worker(meters, yielding)) {
            assertThat(worker.work("w")).isTrue();
        }
        assertThat(index.layer(layer)).get().isInstanceOf(LayerState.Deduplicated.class);
        assertThat(yielding.pauses()).as("paused between its pieces all the same").isGreaterThanOrEqualTo(2);
    }

    private DedupWorker worker(SimpleMeterRegistry meters, YieldToClients yielding) {
        LayerDeduplicator deduplicator = new LayerDeduplicator(blobs, index, metadata.gcIndex(), new LayerSplitter(StandardEncoders.identifier()),
                new LayerRebuilder(StandardEncoders.factory()),
                new DedupSettings(dir.resolve("scratch"), 3, 64 << 20, Duration.ofMinutes(1), DedupLimits.DEFAULT),
                IntactCopyPolicy.NO_COPIES);
        return new DedupWorker(queue, index, deduplicator, new DedupMetrics(meters, index, queue), yielding,
                new ColdFirst(metadata.layerPulls(), 10, Duration.ZERO), Duration.ofMinutes(1), Optional.empty());
    }

    private static void awaitUntil(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("timed out").isNegative();
            Thread.sleep(10);
        }
    }

    /** A gzip'd tar of text files (as most layers' files are) of about {@code tarSize} bytes. */
    private static byte[] gzipLayer(Random random, int tarSize) throws IOException {
        ByteArrayOutputStream blob = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(new GZIPOutputStream(blob, 64 * 1024))) {
            for (int i = 0, written = 0; written < tarSize; i++) {
                byte[] content = new byte[64 * 1024 + random.nextInt(64 * 1024)];
                for (int j = 0; j < content.length; j++) {
                    content[j] = (byte) ('a' + random.nextInt(12));
                }
                TarArchiveEntry entry = new TarArchiveEntry("usr/f" + i);
                entry.setSize(content.length);
                tar.putArchiveEntry(entry);
                tar.write(content);
                tar.closeArchiveEntry();
                written += content.length;
            }
        }
        return blob.toByteArray();
    }

    /** A blob pushed as a layer and queued; not gzip, so the worker decides it at once (it stays intact). */
    private Digest pushAndQueue(String content) throws IOException {
        return pushAndQueue(content.getBytes(StandardCharsets.UTF_8));
    }

    private Digest pushAndQueue(byte[] blob) throws IOException {
        Digest digest = Digest.sha256(blob);
        String upload = UUID.randomUUID().toString();
        blobs.startUpload(upload);
        blobs.append(upload, new ByteArrayInputStream(blob));
        blobs.publish(upload, digest);
        queue.enqueue(new LayerTask(digest, GZIP_LAYER, blob.length));
        return digest;
    }
}
