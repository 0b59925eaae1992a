package dev.layerfold.restore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.dedup.codec.LayerRebuilder;
import dev.layerfold.dedup.codec.identify.StandardEncoders;
import dev.layerfold.dedup.pipeline.IntactCopyPolicy;
import dev.layerfold.dedup.pipeline.IntactCopySweeper;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.dedup.LayerState;
import dev.layerfold.storage.embedded.SqliteMetadataStore;
import dev.layerfold.storage.filesystem.FilesystemBlobStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Intact copies following pulls, over the real embedded stores, pipeline and restorer. */
class IntactCopySweeperTest {

    @TempDir
    Path dir;

    private FilesystemBlobStore blobs;
    private SqliteMetadataStore metadata;
    private final ExecutorService threads = Executors.newFixedThreadPool(4);
    private final HeldExecutor copiers = new HeldExecutor();
    private final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
    private RestoreOnce restores;

    @BeforeEach
    void stores() throws IOException {
        blobs = new FilesystemBlobStore(dir.resolve("data"));
        metadata = new SqliteMetadataStore(dir.resolve("metadata.db"));
        LayerRestorer restorer = new LayerRestorer(blobs, metadata.dedupIndex(), new LayerRebuilder(StandardEncoders.factory()),
                threads, threads, dir.resolve("spool"), metrics);
        restores = new RestoreOnce(blobs, restorer, null, copiers, Duration.ofMinutes(1), true, metrics);
    }

    @AfterEach
    void close() {
        threads.shutdownNow();
        metadata.close();
    }

    private IntactCopySweeper sweeper(boolean selective, double hotPulls, Duration keepRestored) {
        IntactCopyPolicy policy = new IntactCopyPolicy(metadata.layerPulls(), selective, hotPulls, keepRestored);
        return new IntactCopySweeper(blobs, metadata.dedupIndex(), metadata.layerPulls(), policy, restores, null, metrics);
    }

    @Test
    void aRestoredCopyStaysWhileTheLayerIsPulledAndIsThinnedOnceItIsNot() throws Exception {
        byte[] layer = deduplicated(1);
        Digest digest = Digest.sha256(layer);
        assertThat(pull(digest)).isEqualTo(layer);
        copiers.runHeld();
        metadata.layerPulls().record(Map.of(digest, 1L));

        assertThat(sweeper(false, 10, Duration.ofHours(1)).pass().thinned()).as("pulled a moment ago").isZero();
        assertThat(blobs.size(digest)).contains((long) layer.length);

        assertThat(sweeper(false, 10, Duration.ZERO).pass().thinned()).isEqualTo(1);
        assertThat(blobs.size(digest)).isEmpty();
        assertThat(metadata.dedupIndex().layer(digest)).get().isInstanceOf(LayerState.Deduplicated.class);
        assertThat(pull(digest)).as("restored again").isEqualTo(layer);
    }

    @Test
    void inSelectiveModeAHotLayerIsRehydratedAndThinnedOnceItCools() throws Exception {
        byte[] layer = deduplicated(2);
        Digest digest = Digest.sha256(layer);
        metadata.layerPulls().record(Map.of(digest, 5L));

        assertThat(sweeper(true, 3, Duration.ZERO).pass().rehydrated()).isEqualTo(1);
        try (InputStream copy = blobs.open(digest, 0, -1).orElseThrow()) {
            assertThat(copy.readAllBytes()).isEqualTo(layer);
        }

        assertThat(sweeper(true, 50, Duration.ZERO).pass().thinned()).as("5 pulls a day is cold at 50").isEqualTo(1);
        assertThat(blobs.size(digest)).isEmpty();
    }

    private byte[] deduplicated(int seed) throws IOException {
        return DeduplicatedLayers.deduplicated(blobs, metadata.dedupIndex(), metadata.gcIndex(), dir.resolve("scratch"),
                DeduplicatedLayers.layer(new Random(seed), 10));
    }

    private byte[] pull(Digest digest) throws IOException {
        try (InputStream in = restores.open(digest, 0, -1).orElseThrow()) {
            return in.readAllBytes();
        }
    }
}
