package dev.layerfold.restore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layerfold.dedup.codec.recipe.FileRef;
import dev.layerfold.dedup.codec.LayerRebuilder;
import dev.layerfold.dedup.codec.identify.StandardEncoders;
import dev.layerfold.dedup.pipeline.RebuildMemory;
import dev.layerfold.dedup.store.LayerRecord;
import dev.layerfold.dedup.store.StoredFiles;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.blob.ContentBusyException;
import dev.layerfold.storage.dedup.LayerState;
import dev.layerfold.storage.embedded.SqliteMetadataStore;
import dev.layerfold.storage.filesystem.FilesystemBlobStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Restores reserve their heap from the rebuild memory before they fetch or encode: over the budget a
 * restore waits its turn (the request that started it, and those that joined it, wait too), and one
 * that waited the longest wait is refused as busy, which the API answers 429.
 */
class RestoreMemoryBudgetTest {

    /** Smaller than one restore's bound: each restore reserves all of it, so they run one at a time. */
    private static final long ONE_RESTORE = 1 << 20;

    @TempDir
    Path dir;

    private FilesystemBlobStore blobs;
    private SqliteMetadataStore metadata;
    private final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
    private final HeldExecutor heldRebuilds = new HeldExecutor();
    private final ExecutorService fetchers = Executors.newFixedThreadPool(4);
    private final ExecutorService clients = Executors.newCachedThreadPool();

    @BeforeEach
    void stores() throws IOException {
        blobs = new FilesystemBlobStore(dir.resolve("data"));
        metadata = new SqliteMetadataStore(dir.resolve("metadata.db"));
    }

    @AfterEach
    void close() {
        clients.shutdownNow();
        fetchers.shutdownNow();
        metadata.close();
    }

    private LayerRestorer restorer(RebuildMemory memory) {
        return new LayerRestorer(blobs, metadata.dedupIndex(), new LayerRebuilder(StandardEncoders.factory()), heldRebuilds, fetchers,
                dir.resolve("spool"), memory, metrics);
    }

    @Test
    void aRestoreOverTheBudgetWaitsUntilTheRunningOneEndsAndBothComeBackWhole() throws Exception {
        RebuildMemory memory = new RebuildMemory(ONE_RESTORE, Duration.ofMinutes(1), metrics);
        LayerRestorer restorer = restorer(memory);
        byte[] first = deduplicated(DeduplicatedLayers.layer(new Random(1), 20));
        byte[] second = deduplicated(DeduplicatedLayers.layer(new Random(2), 20));

        InputStream firstPull = restorer.open(Digest.sha256(first), 0, -1).orElseThrow();
        CompletableFuture<InputStream> secondPull = CompletableFuture.supplyAsync(() -> open(restorer, second), clients);
        awaitWaiting(memory, 1);
        InputStream joined = restorer.open(Digest.sha256(first), 0, -1).orElseThrow();

        assertThat(secondPull).as("the second restore waits for the first's memory").isNotDone();
        assertThat(heldRebuilds.heldSoFar()).as("only the first restore was started").isEqualTo(1);
        heldRebuilds.runHeld();
        InputStream secondStream = secondPull.get(30, TimeUnit.SECONDS);
        heldRebuilds.runHeld();

        assertThat(firstPull.readAllBytes()).isEqualTo(first);
        assertThat(joined.readAllBytes()).as("a request joining a running restore reserves nothing more").isEqualTo(first);
        assertThat(secondStream.readAllBytes()).isEqualTo(second);
        assertThat(memory.available()).as("every reservation given back").isEqualTo(memory.capacity());
        assertThat(metrics.timer("layerfold.restore.queue.wait").count()).isEqualTo(2);
    }

    @Test
    void aRestoreThatWaitedTheLongestWaitIsRefusedAsBusyAndLeavesNothingBehind() throws Exception {
        RebuildMemory memory = new RebuildMemory(ONE_RESTORE, Duration.ofMillis(200), metrics);
        LayerRestorer restorer = restorer(memory);
        byte[] first = deduplicated(DeduplicatedLayers.layer(new Random(3), 20));
        byte[] second = deduplicated(DeduplicatedLayers.layer(new Random(4), 20));

        InputStream firstPull = restorer.open(Digest.sha256(first), 0, -1).orElseThrow();
        assertThatThrownBy(() -> restorer.open(Digest.sha256(second), 0, -1)).isInstanceOf(ContentBusyException.class)
                .hasMessageContaining("layerfold.dedup.restore-memory");
        assertThat(metrics.counter("layerfold.restore.refused").count()).isEqualTo(1);

        heldRebuilds.runHeld();
        assertThat(firstPull.readAllBytes()).isEqualTo(first);
        // Refused, not broken: once memory is free the same pull restores.
        InputStream retried = restorer.open(Digest.sha256(second), 0, -1).orElseThrow();
        heldRebuilds.runHeld();
        assertThat(retried.readAllBytes()).isEqualTo(second);
        assertThat(memory.available()).isEqualTo(memory.capacity());
    }

    @Test
    void aRestoresBoundCoversItsLookAheadItsEncoderAndItsRecord() throws Exception {
        LayerRestorer restorer = restorer(RebuildMemory.of(1L << 30));
        byte[] layer = deduplicated(DeduplicatedLayers.layer(new Random(5), 20));
        LayerState.Deduplicated state = (LayerState.Deduplicated) metadata.dedupIndex().layer(Digest.sha256(layer)).orElseThrow();
        LayerRecord record = new StoredFiles(blobs).record(state.record());

        long bound = restorer.heapBound(record, state.recordSize());

        long content = 0;
        long stored = 0;
        for (FileRef ref : LayerRecord.filesInOrder(record.recipe())) {
            content += ref.size();
            stored += record.location(ref).length();
        }
        assertThat(bound).as("its files, decompressed and as stored, and an encoder's state at least")
                .isGreaterThan(content + stored + (1L << 20)).isLessThan(64L << 20);
    }

    @Test
    void aSmallLayerReservesForItsOwnFilesNotTheLargestLookAheadSoSeveralRestoreAtOnce() throws Exception {
        byte[] small = deduplicated(DeduplicatedLayers.layer(new Random(6), 20));
        byte[] large = deduplicated(DeduplicatedLayers.layer(new Random(7), 400, 256));
        LayerRestorer probe = restorer(RebuildMemory.of(1L << 30));
        long smallBound = probe.heapBound(Digest.sha256(small)).orElseThrow();
        long largeBound = probe.heapBound(Digest.sha256(large)).orElseThrow();
        assertThat(largeBound - smallBound).as("a 14 MB layer of incompressible files reserves the whole look-ahead, a 0.7 MB one its files")
                .isGreaterThan(PrefetchingFiles.HEAP_BOUND / 2);

        // Room for three small restores but not for two large ones: the small ones run at once.
        RebuildMemory memory = new RebuildMemory(3 * smallBound + (1 << 20), Duration.ofMinutes(1), metrics);
        LayerRestorer restorer = restorer(memory);
        byte[] second = deduplicated(DeduplicatedLayers.layer(new Random(8), 20));
        byte[] third = deduplicated(DeduplicatedLayers.layer(new Random(9), 20));
        InputStream[] pulls = {restorer.open(Digest.sha256(small), 0, -1).orElseThrow(),
                restorer.open(Digest.sha256(second), 0, -1).orElseThrow(), restorer.open(Digest.sha256(third), 0, -1).orElseThrow()};

        assertThat(heldRebuilds.heldSoFar()).as("all three started without waiting for memory").isEqualTo(3);
        assertThat(memory.waiting()).isZero();
        heldRebuilds.runHeld();
        assertThat(pulls[0].readAllBytes()).isEqualTo(small);
        assertThat(pulls[1].readAllBytes()).isEqualTo(second);
        assertThat(pulls[2].readAllBytes()).isEqualTo(third);
        assertThat(memory.available()).isEqualTo(memory.capacity());
    }

    private static InputStream open(LayerRestorer restorer, byte[] layer) {
        try {
            return restorer.open(Digest.sha256(layer), 0, -1).orElseThrow();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void awaitWaiting(RebuildMemory memory, int waiting) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (memory.waiting() < waiting) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no restore waited for memory within 30 s");
            }
            Thread.sleep(10);
        }
    }

    private byte[] deduplicated(byte[] layer) throws IOException {
        return DeduplicatedLayers.deduplicated(blobs, metadata.dedupIndex(), metadata.gcIndex(), dir.resolve("scratch"), layer);
    }
}
