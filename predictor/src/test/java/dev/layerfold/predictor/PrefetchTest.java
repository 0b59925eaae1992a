package dev.layerfold.predictor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.predictor.tier.LayerTier;
import dev.layerfold.registry.api.Puller;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.blob.BlobContent;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.embedded.SqliteMetadataStore;
import dev.layerfold.storage.filesystem.FilesystemBlobStore;
import dev.layerfold.storage.predictor.ImageContents;
import dev.layerfold.storage.predictor.ImageRef;
import dev.layerfold.storage.predictor.PullHistoryLimits;
import dev.layerfold.storage.predictor.SettableClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The predictor end to end in one process, on the real embedded stores: a manifest GET learned, its
 * layers predicted and fetched into a tier, the layer GET served from there. Work handed to executors
 * runs when the test says, so nothing depends on timing.
 */
class PrefetchTest {

    private static final Puller ALICE = new Puller("user:alice", "");
    private static final RepositoryName REPO = RepositoryName.of("team/app");

    @TempDir
    Path dir;

    private final SettableClock clock = new SettableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final Queue<Runnable> pending = new ArrayDeque<>();
    private final Executor queued = pending::add;
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private SqliteMetadataStore metadata;
    private BlobStore blobs;
    private TieredBlobContent content;
    private PullLearner learner;
    private final List<ImageContents.Layer> layers = new ArrayList<>();
    private ImageRef image;

    @BeforeEach
    void setUp() throws Exception {
        metadata = new SqliteMetadataStore(dir.resolve("metadata.db"));
        blobs = new FilesystemBlobStore(dir.resolve("blobs"));
        Tiers tiers = new Tiers(LayerTier.inMemory(1 << 20, Duration.ofMinutes(2), clock),
                LayerTier.onDisk(dir.resolve("tier"), 8 << 20, Duration.ofMinutes(2), clock));
        PredictorMetrics metrics = new PredictorMetrics(registry, tiers);
        BlobContent remote = remote(BlobContent.intact(blobs));
        Prefetcher prefetcher = new Prefetcher(tiers, remote, layer -> blobs.size(layer).isPresent(), queued, metrics);
        content = new TieredBlobContent(remote, layer -> blobs.size(layer).isPresent(), tiers, prefetcher, queued, metrics);
        learner = new PullLearner(metadata.imageLayers(), metadata.pullHistory(PullHistoryLimits.DEFAULT), 0.5,
                prefetcher, queued, clock, metrics);
        for (int i = 0; i < 3; i++) {
            byte[] bytes = ("layer " + i + " ").repeat(1000 * (i + 1)).getBytes();
            Digest digest = Digest.sha256(bytes);
            blobs.startUpload("u" + i);
            blobs.append("u" + i, new ByteArrayInputStream(bytes));
            blobs.publish("u" + i, digest);
            layers.add(new ImageContents.Layer(digest, bytes.length));
        }
        image = new ImageRef(REPO, Digest.sha256("manifest".getBytes()));
        metadata.imageLayers().put(image, new ImageContents.Layers(layers));
    }

    @AfterEach
    void close() {
        metadata.close();
    }

    /** The blob content as a remote store offers it: no local files to send, so tiers have work to do. */
    private static BlobContent remote(BlobContent local) {
        return new BlobContent() {
            @Override
            public Optional<Long> size(Digest digest) throws IOException {
                return local.size(digest);
            }

            @Override
            public Optional<InputStream> open(Digest digest, long offset, long length) throws IOException {
                return local.open(digest, offset, length);
            }

            @Override
            public Optional<URI> directUrl(Digest digest, Duration validFor) {
                return Optional.empty();
            }

            @Override
            public Optional<Path> localFile(Digest digest) {
                return Optional.empty();
            }
        };
    }

    private void runPending() {
        while (!pending.isEmpty()) {
            pending.poll().run();
        }
    }

    private void pullLayers() throws IOException {
        for (ImageContents.Layer layer : layers) {
            learner.blobPulled(ALICE, REPO, layer.digest());
            try (InputStream in = content.open(layer.digest(), 0, layer.size()).orElseThrow()) {
                assertThat(Digest.sha256(in.readAllBytes())).isEqualTo(layer.digest());
            }
            runPending();
        }
    }

    private double served(String source) {
        return registry.get("layerfold.predictor.requests").tag("source", source).counter().count();
    }

    @Test
    void afterAManifestGetTheLayersComeFromATier() throws Exception {
        learner.manifestPulled(ALICE, REPO, image.manifest());
        runPending();

        pullLayers();

        assertThat(served("memory")).isEqualTo(3);
        assertThat(served("intact")).isZero();
        assertThat(registry.get("layerfold.predictor.hit.ratio").gauge().value()).isEqualTo(1.0);
    }

    @Test
    void withoutAManifestGetLayersComeFromBehindAndAreKeptForTheNextClient() throws Exception {
        pullLayers();
        assertThat(served("intact")).isEqualTo(3);

        try (InputStream in = content.open(layers.getFirst().digest(), 0, -1).orElseThrow()) {
            in.readAllBytes();
        }
        assertThat(served("memory")).isEqualTo(1);
    }

    @Test
    void aClientThatHoldsTheImageAndNeverPullsAgainGetsNothingFetched() throws Exception {
        learner.manifestPulled(ALICE, REPO, image.manifest());
        runPending();
        pullLayers();
        for (int i = 0; i < 10; i++) {
            learner.manifestPulled(ALICE, REPO, image.manifest());
            runPending();
        }

        assertThat(registry.get("layerfold.predictor.prefetches").tag("outcome", "fetched").counter().count())
                .isEqualTo(3);
    }

    @Test
    void aLayerBeingFetchedIsNotFetchedTwice() throws Exception {
        learner.manifestPulled(ALICE, REPO, image.manifest());
        learner.manifestPulled(new Puller("user:bob", ""), REPO, image.manifest());
        pending.poll().run();
        pending.poll().run();

        assertThat(pending).hasSize(3);
    }
}
