package dev.layerfold.restore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.dedup.codec.LayerRebuilder;
import dev.layerfold.dedup.codec.identify.StandardEncoders;
import dev.layerfold.dedup.pipeline.IntactCopyBudget;
import dev.layerfold.dedup.pipeline.IntactCopyPolicy;
import dev.layerfold.dedup.pipeline.IntactCopySweeper;
import dev.layerfold.dedup.pipeline.YieldToClients;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.embedded.SqliteMetadataStore;
import dev.layerfold.storage.filesystem.FilesystemBlobStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Mode {@code budgeted}: intact copies within a budget, over the real embedded stores, pipeline and restorer. */
class IntactCopyBudgetTest {

    @TempDir
    Path dir;

    private FilesystemBlobStore blobs;
    private SqliteMetadataStore metadata;
    private final ExecutorService threads = Executors.newFixedThreadPool(4);
    private final HeldExecutor copiers = new HeldExecutor();
    private final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
    private final AtomicLong budgetBytes = new AtomicLong();
    private IntactCopyBudget budget;
    private RestoreOnce restores;
    private RestoringBlobContent content;

    @BeforeEach
    void stores() throws IOException {
        blobs = new FilesystemBlobStore(dir.resolve("data"));
        metadata = new SqliteMetadataStore(dir.resolve("metadata.db"));
        LayerRestorer restorer = new LayerRestorer(blobs, metadata.dedupIndex(), new LayerRebuilder(StandardEncoders.factory()),
                threads, threads, dir.resolve("spool"), metrics);
        budget = new IntactCopyBudget(blobs, metadata.dedupIndex(), budgetBytes::get, Runnable::run, metrics);
        restores = new RestoreOnce(blobs, restorer, null, copiers, Duration.ofMinutes(1), true, metrics, budget::copyWritten);
        content = new RestoringBlobContent(blobs, restores);
    }

    @AfterEach
    void close() {
        threads.shutdownNow();
        metadata.close();
    }

    @Test
    void aBaseLayerEveryonePullsKeepsItsCopyWhileOneOffPullsComeAndGoWithinTheBudget() throws Exception {
        byte[] base = deduplicated(10);
        List<byte[]> oneOffs = new ArrayList<>();
        for (int seed = 11; seed < 23; seed++) {
            oneOffs.add(deduplicated(seed));
        }
        long largest = oneOffs.stream().mapToLong(layer -> layer.length).max().orElseThrow();
        budgetBytes.set(3 * Math.max(largest, base.length));
        budget.resize();

        for (int i = 0; i < 6; i++) {
            assertThat(pull(base)).isEqualTo(base);
        }
        for (int i = 0; i < oneOffs.size(); i++) {
            assertThat(pull(oneOffs.get(i))).isEqualTo(oneOffs.get(i));
            if (i % 3 == 2) {
                assertThat(pull(base)).isEqualTo(base);
            }
        }
        budget.resize();

        assertThat(budget.holds(Digest.sha256(base))).as("the popular layer is held").isTrue();
        assertThat(blobs.size(Digest.sha256(base))).as("and keeps its copy").isPresent();
        assertThat(budget.heldBytes()).isLessThanOrEqualTo(budgetBytes.get() + 1024);
        int copies = 0;
        for (byte[] layer : oneOffs) {
            Digest digest = Digest.sha256(layer);
            assertThat(blobs.size(digest).isPresent()).as("a copy exists exactly while the budget holds the layer")
                    .isEqualTo(budget.holds(digest));
            copies += budget.holds(digest) ? 1 : 0;
        }
        assertThat(copies).as("at most what fits beside the base layer in three times the largest").isLessThanOrEqualTo(3);
        assertThat(metrics.get("layerfold.dedup.copies.evicted").counter().count()).isGreaterThanOrEqualTo(oneOffs.size() - 3);
        for (byte[] layer : oneOffs) {
            assertThat(pull(layer)).as("served, from a copy or rebuilt").isEqualTo(layer);
        }
    }

    @Test
    void aShrunkBudgetEvictsTheLeastPulledCopiesAndKeepsThePopularOne() throws Exception {
        byte[] popular = deduplicated(30);
        byte[] other = deduplicated(31);
        // Room for both: Caffeine counts popularity from when the cache is half full, as a budget mostly is.
        budgetBytes.set(popular.length + other.length + 256 * 1024);
        budget.resize();
        pull(other);
        for (int i = 0; i < 5; i++) {
            pull(popular);
        }
        assertThat(budget.holds(Digest.sha256(other))).isTrue();

        budgetBytes.set(popular.length + 1024);
        budget.resize();

        assertThat(budget.holds(Digest.sha256(popular))).isTrue();
        assertThat(blobs.size(Digest.sha256(popular))).isPresent();
        assertThat(budget.holds(Digest.sha256(other))).isFalse();
        assertThat(blobs.size(Digest.sha256(other))).as("its copy deleted").isEmpty();
    }

    @Test
    void aPopularLayerWithoutACopyIsRebuiltAheadIntoTheBudgetsRoomOnlyWhileNoClientIsServed() throws Exception {
        byte[] layer = deduplicated(40);
        Digest digest = Digest.sha256(layer);
        metadata.layerPulls().record(Map.of(digest, 20L));
        budgetBytes.set(layer.length / 2);
        AtomicBoolean clients = new AtomicBoolean(true);
        IntactCopySweeper sweeper = new IntactCopySweeper(blobs, metadata.dedupIndex(), metadata.layerPulls(),
                IntactCopyPolicy.budgeted(budget, 10), restores, null, metrics, new YieldToClients(clients::get, Duration.ofSeconds(1)));

        assertThat(sweeper.pass().rehydrated()).as("no room: never past the budget").isZero();
        budgetBytes.set(4L * layer.length);
        assertThat(sweeper.pass().rehydrated()).as("clients are served").isZero();
        clients.set(false);
        assertThat(sweeper.pass().rehydrated()).isEqualTo(1);

        assertThat(budget.holds(digest)).isTrue();
        try (InputStream copy = blobs.open(digest, 0, -1).orElseThrow()) {
            assertThat(copy.readAllBytes()).isEqualTo(layer);
        }
        assertThat(sweeper.pass().thinned()).as("held: kept").isZero();
    }

    /** A pull as the API serves it: the blob content, then the pull counted, then the copy written. */
    private byte[] pull(byte[] layer) throws IOException {
        Digest digest = Digest.sha256(layer);
        byte[] served;
        try (InputStream in = content.open(digest, 0, -1).orElseThrow()) {
            served = in.readAllBytes();
        }
        budget.pulled(digest);
        copiers.runHeld();
        return served;
    }

    private byte[] deduplicated(int seed) throws IOException {
        return DeduplicatedLayers.deduplicated(blobs, metadata.dedupIndex(), metadata.gcIndex(), dir.resolve("scratch"),
                DeduplicatedLayers.layer(new Random(seed), 10));
    }
}
