package dev.layerfold.restore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.dedup.codec.LayerRebuilder;
import dev.layerfold.dedup.codec.identify.StandardEncoders;
import dev.layerfold.dedup.codec.recipe.GzipMember;
import dev.layerfold.dedup.codec.recipe.Recipe;
import dev.layerfold.dedup.codec.restart.SegmentPool;
import dev.layerfold.dedup.pipeline.RebuildMemory;
import dev.layerfold.dedup.store.StoredFiles;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.dedup.LayerState;
import dev.layerfold.storage.embedded.SqliteMetadataStore;
import dev.layerfold.storage.filesystem.FilesystemBlobStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** Restores of a pigz layer with restart points, deduplicated by the real pipeline: in segments on two threads, and from a point. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ParallelRestoreTest {

    private FilesystemBlobStore blobs;
    private SqliteMetadataStore metadata;
    private final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
    private final ExecutorService encoders = Executors.newFixedThreadPool(2);
    private final ExecutorService fetchers = Executors.newFixedThreadPool(4);
    private LayerRestorer restorer;
    private byte[] layer;

    @BeforeAll
    void deduplicateOneLayer(@TempDir Path dir) throws IOException {
        blobs = new FilesystemBlobStore(dir.resolve("data"));
        metadata = new SqliteMetadataStore(dir.resolve("metadata.db"));
        restorer = new LayerRestorer(blobs, metadata.dedupIndex(), new LayerRebuilder(StandardEncoders.factory(), new SegmentPool(encoders, 2)),
                encoders, fetchers, dir.resolve("spool"), metrics);
        layer = DeduplicatedLayers.deduplicated(blobs, metadata.dedupIndex(), metadata.gcIndex(), dir.resolve("scratch"),
                layerOf(new Random(3), 13));
    }

    /** A layer of about {@code megabytes} MB of tar from a producer whose layers get restart points. */
    byte[] layerOf(Random random, int megabytes) throws IOException {
        return DeduplicatedLayers.pigzLayer(random, megabytes);
    }

    @AfterAll
    void close() {
        encoders.shutdownNow();
        fetchers.shutdownNow();
        metadata.close();
    }

    @Test
    void thePipelineRecordedVerifiedRestartPoints() throws IOException {
        assertThat(recordedRestartPoints()).as("a point every 4 MiB of 13 MB").isGreaterThanOrEqualTo(3);
    }

    /** How many restart points the pipeline recorded in the layer's gzip member. */
    int recordedRestartPoints() throws IOException {
        return recordedMember().restartPoints().size();
    }

    /** The layer's gzip member as the pipeline recorded it. */
    GzipMember recordedMember() throws IOException {
        return recordedRecipe().members().getFirst();
    }

    Recipe recordedRecipe() throws IOException {
        var state = (LayerState.Deduplicated) metadata.dedupIndex().layer(digest()).orElseThrow();
        return new StoredFiles(blobs).record(state.record()).recipe();
    }

    @Test
    void aLayerWhoseSegmentsWouldNeedMoreThanTheBudgetRestoresInOnePieceAndExactly(@TempDir Path spool) throws IOException {
        AtomicInteger segmentsEncodedOnThePool = new AtomicInteger();
        Executor counting = task -> {
            segmentsEncodedOnThePool.incrementAndGet();
            encoders.execute(task);
        };
        RebuildMemory small = RebuildMemory.of(24L << 20);
        LayerRestorer restorer = new LayerRestorer(blobs, metadata.dedupIndex(),
                new LayerRebuilder(StandardEncoders.factory(), new SegmentPool(counting, 2)), encoders, fetchers, spool, small, metrics);

        assertThat(this.restorer.heapBound(digest()).orElseThrow()).as("its segments' bound").isGreaterThan(small.capacity());
        try (InputStream in = restorer.open(digest(), 0, -1).orElseThrow()) {
            assertThat(in.readAllBytes()).isEqualTo(layer);
        }
        assertThat(segmentsEncodedOnThePool).as("no segment encoded apart").hasValue(0);
        assertThat(restorer.heapBound(digest()).orElseThrow()).as("what it reserved in one piece").isLessThan(this.restorer.heapBound(digest()).orElseThrow());
        assertThat(restorer.openFromRestartPoint(digest(), layer.length - 1000, -1)).as("a Range restores the whole layer instead").isEmpty();
        assertThat(small.available()).isEqualTo(small.capacity());
    }

    @Test
    void aLayerWithRestartPointsRestoresExactlyInSegments() throws IOException {
        try (InputStream in = restorer.open(digest(), 0, -1).orElseThrow()) {
            assertThat(in.readAllBytes()).isEqualTo(layer);
        }
    }

    @Test
    void aRangeNearTheEndIsRebuiltFromTheRestartPointBeforeIt() throws IOException {
        double before = metrics.counter("layerfold.restore.resumed").count();
        int from = layer.length - (1 << 20);
        try (InputStream in = restorer.openFromRestartPoint(digest(), from, -1).orElseThrow()) {
            assertThat(in.readAllBytes()).isEqualTo(Arrays.copyOfRange(layer, from, layer.length));
        }
        try (InputStream in = restorer.openFromRestartPoint(digest(), from + 1000, 5000).orElseThrow()) {
            assertThat(in.readAllBytes()).isEqualTo(Arrays.copyOfRange(layer, from + 1000, from + 6000));
        }
        assertThat(metrics.counter("layerfold.restore.resumed").count() - before).isEqualTo(2);
    }

    @Test
    void aRangeBeforeTheFirstRestartPointHasNoneToStartAt() throws IOException {
        assertThat(restorer.openFromRestartPoint(digest(), 100, -1)).isEmpty();
    }

    private Digest digest() {
        return Digest.sha256(layer);
    }
}
