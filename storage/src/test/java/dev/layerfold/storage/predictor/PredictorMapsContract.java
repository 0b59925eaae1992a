package dev.layerfold.storage.predictor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.predictor.UserHistory.LayerPulls;
import dev.layerfold.storage.predictor.UserHistory.RepullCounts;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The contract of the predictor's maps ({@link ImageLayers}, {@link PullHistory}). An implementation's
 * test extends this class and supplies fresh, empty maps from {@link #newStorage()} and another handle
 * on the same maps (another process's view) from {@link #sameStorage()}.
 */
public abstract class PredictorMapsContract {

    protected static final PullHistoryLimits LIMITS = new PullHistoryLimits(Duration.ofDays(30), 3, 10);

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final ImageRef APP = image("team/app", "app-v1");
    private static final ImageRef APP_V2 = image("team/app", "app-v2");

    protected abstract PredictorStorage newStorage() throws Exception;

    protected abstract PredictorStorage sameStorage() throws Exception;

    protected static Digest digest(String name) {
        return Digest.sha256(name.getBytes(StandardCharsets.UTF_8));
    }

    private static ImageRef image(String repository, String manifest) {
        return new ImageRef(RepositoryName.of(repository), digest(manifest));
    }

    @Test
    void anImagesLayersAndAnIndexsPlatformsReadBackAsWritten() throws Exception {
        ImageLayers images = newStorage().imageLayers();
        ImageContents layers = new ImageContents.Layers(List.of(new ImageContents.Layer(digest("a"), 10),
                new ImageContents.Layer(digest("b"), 5_000_000_000L)));
        ImageContents index = new ImageContents.Index(List.of(
                new ImageContents.PlatformManifest(digest("amd"), "linux/amd64"),
                new ImageContents.PlatformManifest(digest("arm"), "linux/arm64/v8"),
                new ImageContents.PlatformManifest(digest("att"), "")));
        images.put(APP, layers);
        images.put(APP_V2, index);

        ImageLayers other = sameStorage().imageLayers();
        assertThat(other.get(APP)).contains(layers);
        assertThat(other.get(APP_V2)).contains(index);
        assertThat(other.get(image("team/other", "app-v1"))).isEmpty();
    }

    @Test
    void aRemovedImageIsGone() throws Exception {
        ImageLayers images = newStorage().imageLayers();
        images.put(APP, new ImageContents.Layers(List.of(new ImageContents.Layer(digest("a"), 1))));

        images.remove(APP);
        images.remove(APP);

        assertThat(images.get(APP)).isEmpty();
    }

    @Test
    void pullsAreCountedPerUserAndLayerWithTheirLastTime() throws Exception {
        PullHistory history = newStorage().pullHistory(LIMITS);
        assertThat(history.pulled("alice", digest("a"), T0)).isZero();
        assertThat(history.pulled("alice", digest("a"), T0.plusSeconds(5))).isEqualTo(1);
        history.pulled("bob", digest("b"), T0);

        UserHistory alice = sameStorage().pullHistory(LIMITS).read("alice", APP, List.of(digest("a"), digest("b")),
                T0.plusSeconds(10));

        assertThat(alice.pulls()).containsOnlyKeys(digest("a"));
        assertThat(alice.pulls().get(digest("a"))).isEqualTo(new LayerPulls(2, T0.plusSeconds(5).toEpochMilli()));
    }

    @Test
    void anUnknownUserHoldsNothingAndHasNoCounts() throws Exception {
        UserHistory nobody = newStorage().pullHistory(LIMITS).read("nobody", APP, List.of(digest("a")), T0);

        assertThat(nobody.pulls()).isEmpty();
        assertThat(nobody.user()).isEqualTo(RepullCounts.NONE);
        assertThat(nobody.image()).isEqualTo(RepullCounts.NONE);
        assertThat(nobody.lastImage()).isEmpty();
        assertThat(nobody.platform()).isEmpty();
    }

    @Test
    void repullsCountForTheUserAndTheImageItFetchedLast() throws Exception {
        PullHistory history = newStorage().pullHistory(LIMITS);
        history.pulled("alice", digest("a"), T0);
        history.offered("alice", APP, 1, "linux/arm64", T0.plusSeconds(1));
        history.pulled("alice", digest("a"), T0.plusSeconds(2));
        history.offered("bob", APP, 2, "", T0.plusSeconds(3));

        UserHistory alice = history.read("alice", APP, List.of(digest("a")), T0.plusSeconds(4));

        assertThat(alice.user()).isEqualTo(new RepullCounts(1, 1));
        assertThat(alice.image()).isEqualTo(new RepullCounts(3, 1));
        assertThat(alice.lastImage()).contains(APP);
        assertThat(alice.platform()).isEqualTo("linux/arm64");
        assertThat(history.read("bob", APP_V2, List.of(), T0.plusSeconds(4)).image()).isEqualTo(RepullCounts.NONE);
    }

    @Test
    void aPlatformOnceKnownStaysUntilAnotherIsChosen() throws Exception {
        PullHistory history = newStorage().pullHistory(LIMITS);
        history.offered("alice", APP, 0, "linux/arm64", T0);
        history.offered("alice", APP_V2, 0, "", T0.plusSeconds(1));

        assertThat(history.read("alice", APP, List.of(), T0.plusSeconds(2)).platform()).isEqualTo("linux/arm64");
    }

    @Test
    void repullCountersHalveWhenTheOffersReachTheDecayPoint() throws Exception {
        PullHistory history = newStorage().pullHistory(LIMITS);
        history.pulled("alice", digest("a"), T0);
        history.offered("alice", APP, 4, "", T0);
        for (int i = 0; i < 4; i++) {
            history.pulled("alice", digest("a"), T0);
        }
        history.offered("alice", APP, 6, "", T0);

        RepullCounts counts = history.read("alice", APP, List.of(), T0).user();
        assertThat(counts).isEqualTo(new RepullCounts(5, 2));
    }

    @Test
    void aLayerNotPulledForTheForgettingTimeCountsAsNeverPulled() throws Exception {
        PullHistory history = newStorage().pullHistory(LIMITS);
        history.pulled("alice", digest("old"), T0);
        history.pulled("alice", digest("recent"), T0.plus(Duration.ofDays(20)));

        Instant later = T0.plus(Duration.ofDays(31));
        assertThat(history.read("alice", APP, List.of(digest("old"), digest("recent")), later).pulls())
                .containsOnlyKeys(digest("recent"));
        assertThat(history.pulled("alice", digest("old"), later)).isZero();
    }

    @Test
    void aUserKeepsOnlyItsMostRecentlyPulledLayers() throws Exception {
        PullHistory history = newStorage().pullHistory(LIMITS);
        for (int i = 0; i < 5; i++) {
            history.pulled("alice", digest("layer" + i), T0.plusSeconds(i));
        }
        List<Digest> all = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            all.add(digest("layer" + i));
        }

        assertThat(history.read("alice", APP, all, T0.plusSeconds(10)).pulls())
                .containsOnlyKeys(digest("layer2"), digest("layer3"), digest("layer4"));
    }

    @Test
    void idleUsersAreForgotten() throws Exception {
        PullHistory history = newStorage().pullHistory(LIMITS);
        history.pulled("alice", digest("a"), T0);
        history.offered("alice", APP, 1, "linux/amd64", T0);

        Instant later = T0.plus(Duration.ofDays(31));
        history.forgetIdle(later);

        UserHistory alice = history.read("alice", APP, List.of(digest("a")), later);
        assertThat(alice.pulls()).isEmpty();
        assertThat(alice.user()).isEqualTo(RepullCounts.NONE);
    }

    @Test
    void concurrentPullsFromSeveralProcessesLoseNoCount() throws Exception {
        PullHistory first = newStorage().pullHistory(LIMITS);
        PullHistory second = sameStorage().pullHistory(LIMITS);
        first.pulled("alice", digest("a"), T0);
        first.offered("alice", APP, 1, "", T0);
        int perProcess = 50;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<Void>> running = new ArrayList<>();
            for (PullHistory history : List.of(first, second, first, second)) {
                Callable<Void> pulls = () -> {
                    start.await();
                    for (int i = 0; i < perProcess; i++) {
                        history.pulled("alice", digest("a"), T0);
                    }
                    return null;
                };
                running.add(threads.submit(pulls));
            }
            start.countDown();
            for (Future<Void> pulls : running) {
                pulls.get();
            }
        } finally {
            threads.shutdownNow();
        }

        UserHistory alice = first.read("alice", APP, List.of(digest("a")), T0);
        assertThat(alice.pulls().get(digest("a")).count()).isEqualTo(1 + 4 * perProcess);
        assertThat(alice.image().repulled()).isEqualTo(4 * perProcess);
        assertThat(Optional.of(alice.user().repulled())).contains((long) 4 * perProcess);
    }
}
