package dev.layerfold.predictor;

import dev.layerfold.registry.api.PullListener;
import dev.layerfold.registry.api.Puller;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.predictor.ImageContents;
import dev.layerfold.storage.predictor.ImageLayers;
import dev.layerfold.storage.predictor.ImageRef;
import dev.layerfold.storage.predictor.PullHistory;
import dev.layerfold.storage.predictor.UserHistory;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Learns from every pull and predicts at every manifest GET. The request only hands the event to a
 * bounded single-thread executor (so a user's events are learned in the order they came, and a full
 * queue drops learning, never slows a request); there the maps are read and updated and the predicted
 * layers handed to the {@link Prefetcher}.
 *
 * <p>An index GET predicts the layers of the platform this client will pick (see {@link PlatformChoice});
 * the GET of one of its manifests that follows teaches which platform the client picked.
 */
public final class PullLearner implements PullListener {

    private static final Logger log = LoggerFactory.getLogger(PullLearner.class);

    private final ImageLayers images;
    private final PullHistory history;
    private final Predictor predictor;
    private final Prefetcher prefetcher;
    private final Executor learning;
    private final Clock clock;
    private final PredictorMetrics metrics;

    /**
     * @param threshold the least probability of a GET worth fetching a layer ahead for
     * @param learning a single-thread executor with a bounded queue that rejects work when full
     */
    public PullLearner(ImageLayers images, PullHistory history, double threshold, Prefetcher prefetcher,
                       Executor learning, Clock clock, PredictorMetrics metrics) {
        this.images = images;
        this.history = history;
        this.predictor = new Predictor(threshold);
        this.prefetcher = prefetcher;
        this.learning = learning;
        this.clock = clock;
        this.metrics = metrics;
    }

    @Override
    public void manifestPulled(Puller puller, RepositoryName repository, Digest manifest) {
        Instant now = clock.instant();
        submit(() -> learnManifest(puller, new ImageRef(repository, manifest), now));
    }

    @Override
    public void blobPulled(Puller puller, RepositoryName repository, Digest blob) {
        Instant now = clock.instant();
        submit(() -> history.pulled(puller.id(), blob, now));
    }

    /**
     * Completes once every pull reported before was learned from and the fetches it started ended: for
     * tests and benchmarks, which must not guess how long that takes. Fails if the queue is full.
     */
    public CompletableFuture<Void> caughtUp() {
        CompletableFuture<Void> learned = new CompletableFuture<>();
        learning.execute(() -> learned.complete(null));
        return learned.thenCompose(done -> prefetcher.quiet());
    }

    private void submit(Learning work) {
        try {
            learning.execute(() -> {
                try {
                    work.run();
                } catch (IOException | RuntimeException e) {
                    log.debug("learning from a pull failed: {}", e.toString());
                }
            });
        } catch (RejectedExecutionException busy) {
            metrics.learningDropped();
        }
    }

    /** Learns from one manifest GET and fetches ahead what it predicts. Runs on the learning thread. */
    void learnManifest(Puller puller, ImageRef image, Instant now) throws IOException {
        Optional<ImageContents> contents = images.get(image);
        if (contents.isEmpty()) {
            return;
        }
        switch (contents.get()) {
            case ImageContents.Index index -> {
                UserHistory known = history.read(puller.id(), image, List.of(), now);
                // The index becomes the user's last image, so the manifest it picks next teaches its platform.
                history.offered(puller.id(), image, 0, "", now);
                Optional<ImageContents.PlatformManifest> picked = PlatformChoice.choose(index, puller.userAgent(), known.platform());
                if (picked.isPresent()) {
                    ImageRef child = new ImageRef(image.repository(), picked.get().manifest());
                    if (images.get(child).orElse(null) instanceof ImageContents.Layers layers) {
                        prefetch(layers, history.read(puller.id(), child, digests(layers), now));
                    }
                }
            }
            case ImageContents.Layers layers -> {
                UserHistory known = history.read(puller.id(), image, digests(layers), now);
                history.offered(puller.id(), image, known.pulls().size(), platformPicked(known, image), now);
                prefetch(layers, known);
            }
        }
    }

    private void prefetch(ImageContents.Layers layers, UserHistory known) {
        predictor.predict(layers.layers(), known).forEach(predicted -> prefetcher.fetch(predicted.layer()));
    }

    /** The platform of {@code image} in the index the user fetched just before, if it came from one. */
    private String platformPicked(UserHistory known, ImageRef image) throws IOException {
        if (known.lastImage().isEmpty() || known.lastImage().get().equals(image)) {
            return "";
        }
        if (images.get(known.lastImage().get()).orElse(null) instanceof ImageContents.Index index) {
            return index.manifests().stream().filter(entry -> entry.manifest().equals(image.manifest()))
                    .map(ImageContents.PlatformManifest::platform).findFirst().orElse("");
        }
        return "";
    }

    private static List<Digest> digests(ImageContents.Layers layers) {
        return layers.layers().stream().map(ImageContents.Layer::digest).toList();
    }

    @FunctionalInterface
    private interface Learning {
        void run() throws IOException;
    }
}
