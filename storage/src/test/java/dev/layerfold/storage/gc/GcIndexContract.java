package dev.layerfold.storage.gc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The {@link GcIndex} contract. An implementation's test extends this class and supplies a fresh
 * index per call of {@link #newIndex()} (complete since ever) and another handle on it, as another
 * process would open it, from {@link #sameIndex()}.
 */
public abstract class GcIndexContract {

    private static final Duration NONE = Duration.ZERO;
    private static final Duration HOUR = Duration.ofHours(1);
    private static final RepositoryName APP = RepositoryName.of("team/app");
    private static final RepositoryName OTHER = RepositoryName.of("team/other");
    private static final Digest MANIFEST = digest("manifest");
    private static final Digest LAYER = digest("layer");
    private static final Digest CONFIG = digest("config");

    /** A new, empty index that is complete since ever. */
    protected abstract GcIndex newIndex() throws Exception;

    protected abstract GcIndex sameIndex() throws Exception;

    protected static Digest digest(String name) {
        return Digest.sha256(name.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aTouchedBlobIsKeptForTheGracePeriodThenCondemnedWithItsLinks() throws Exception {
        GcIndex index = newIndex();
        assertThat(index.touch(APP, LAYER)).isTrue();
        assertThat(index.touch(OTHER, LAYER)).isTrue();

        assertThat(sameIndex().candidates(HOUR, 10)).isEmpty();
        assertThat(sameIndex().condemn(LAYER, HOUR)).isEmpty();
        assertThat(sameIndex().candidates(NONE, 10)).containsExactly(LAYER);

        Optional<GcIndex.Condemnation> condemned = sameIndex().condemn(LAYER, NONE);
        assertThat(condemned).hasValueSatisfying(c -> assertThat(c.linkedIn()).containsExactlyInAnyOrder(APP, OTHER));
        assertThat(index.stillCondemned(condemned.get())).isTrue();
    }

    @Test
    void aReferencedDigestIsNeverCondemnedAndStopsBeingACandidate() throws Exception {
        GcIndex index = newIndex();
        index.touch(APP, LAYER);
        assertThat(index.reference(APP, MANIFEST, List.of(LAYER, CONFIG, MANIFEST))).isEmpty();

        assertThat(sameIndex().condemn(LAYER, NONE)).isEmpty();
        assertThat(sameIndex().candidates(NONE, 10)).doesNotContain(LAYER);
        assertThat(index.references(LAYER)).isEqualTo(1);
    }

    @Test
    void referencesCountEachRepositoryAndManifestOnce() throws Exception {
        GcIndex index = newIndex();
        index.reference(APP, MANIFEST, List.of(LAYER, LAYER));
        index.reference(APP, MANIFEST, List.of(LAYER));
        sameIndex().reference(OTHER, MANIFEST, List.of(LAYER));
        sameIndex().reference(APP, digest("another manifest"), List.of(LAYER));

        assertThat(index.references(LAYER)).isEqualTo(3);
    }

    @Test
    void aManifestIsReferencedSinceItsFirstPushUntilItIsUnreferenced() throws Exception {
        GcIndex index = newIndex();
        assertThat(index.referencedSince(APP, MANIFEST)).isEmpty();

        index.reference(APP, MANIFEST, List.of(LAYER, MANIFEST));
        long since = index.referencedSince(APP, MANIFEST).orElseThrow();
        index.reference(APP, MANIFEST, List.of(LAYER, MANIFEST));

        assertThat(sameIndex().referencedSince(APP, MANIFEST)).contains(since);
        assertThat(sameIndex().referencedSince(OTHER, MANIFEST)).isEmpty();
        index.unreference(APP, MANIFEST);
        assertThat(sameIndex().referencedSince(APP, MANIFEST)).isEmpty();
    }

    @Test
    void unreferencingMakesTheTargetsCandidatesThatMayBeCondemned() throws Exception {
        GcIndex index = newIndex();
        index.reference(APP, MANIFEST, List.of(LAYER, CONFIG));
        index.reference(OTHER, MANIFEST, List.of(CONFIG));

        sameIndex().unreference(APP, MANIFEST);

        assertThat(index.references(LAYER)).isZero();
        assertThat(index.references(CONFIG)).as("still referenced elsewhere").isEqualTo(1);
        assertThat(index.candidates(NONE, 10)).containsExactlyInAnyOrder(LAYER, CONFIG);
        assertThat(index.condemn(CONFIG, NONE)).isEmpty();
        assertThat(index.condemn(LAYER, NONE)).isPresent();
    }

    @Test
    void aCondemnedDigestRefusesTouchesAndReferencesUntilItIsBuried() throws Exception {
        GcIndex index = newIndex();
        index.touch(APP, LAYER);
        GcIndex.Condemnation condemned = index.condemn(LAYER, NONE).orElseThrow();

        assertThat(sameIndex().touch(OTHER, LAYER)).isFalse();
        assertThat(sameIndex().reference(APP, MANIFEST, List.of(CONFIG, LAYER))).containsExactly(LAYER);
        assertThat(index.references(CONFIG)).as("a refused reference records nothing").isZero();
        assertThat(sameIndex().condemn(LAYER, NONE)).as("one condemnation at a time").isEmpty();

        index.bury(condemned);

        assertThat(index.stillCondemned(condemned)).isFalse();
        assertThat(index.candidates(NONE, 10)).isEmpty();
        assertThat(sameIndex().touch(OTHER, LAYER)).isTrue();
        assertThat(sameIndex().condemn(LAYER, NONE)).hasValueSatisfying(c -> assertThat(c.linkedIn()).containsExactly(OTHER));
    }

    @Test
    void aTouchWithoutARepositoryDefersCondemnationLinksNothingAndIsRefusedWhileCondemned() throws Exception {
        GcIndex index = newIndex();
        assertThat(index.touch(LAYER)).isTrue();
        assertThat(sameIndex().condemn(LAYER, HOUR)).as("touched within the grace").isEmpty();

        GcIndex.Condemnation condemned = sameIndex().condemn(LAYER, NONE).orElseThrow();
        assertThat(condemned.linkedIn()).isEmpty();
        assertThat(sameIndex().touch(LAYER)).isFalse();

        index.bury(condemned);
        assertThat(sameIndex().touch(LAYER)).isTrue();
        assertThat(index.candidates(NONE, 10)).containsExactly(LAYER);
    }

    @Test
    void aReleaseKilledBeforeItsUnreferenceIsFoundOnceOldAndFinishedByTheCollector() throws Exception {
        GcIndex index = newIndex();
        index.reference(APP, MANIFEST, List.of(LAYER, MANIFEST));
        index.releasing(APP, MANIFEST);

        assertThat(sameIndex().unfinishedReleases(HOUR, 10)).isEmpty();
        GcIndex.Release release = sameIndex().unfinishedReleases(NONE, 10).getFirst();
        assertThat(release.repository()).isEqualTo(APP);
        assertThat(release.manifest()).isEqualTo(MANIFEST);

        sameIndex().finishRelease(release);

        assertThat(index.references(LAYER)).isZero();
        assertThat(index.candidates(NONE, 10)).containsExactlyInAnyOrder(LAYER, MANIFEST);
        assertThat(index.unfinishedReleases(NONE, 10)).isEmpty();
    }

    @Test
    void anUnreferenceEndsItsReleaseAndAReferenceCancelsOneSoAStaleFinishChangesNothing() throws Exception {
        GcIndex index = newIndex();
        index.reference(APP, MANIFEST, List.of(LAYER, MANIFEST));
        index.releasing(APP, MANIFEST);
        index.unreference(APP, MANIFEST);
        assertThat(sameIndex().unfinishedReleases(NONE, 10)).isEmpty();

        index.reference(APP, MANIFEST, List.of(LAYER, MANIFEST));
        index.releasing(APP, MANIFEST);
        GcIndex.Release read = sameIndex().unfinishedReleases(NONE, 10).getFirst();
        assertThat(index.reference(APP, MANIFEST, List.of(LAYER, MANIFEST))).as("pushed again").isEmpty();
        sameIndex().finishRelease(read);

        assertThat(index.references(LAYER)).isEqualTo(1);
        assertThat(index.unfinishedReleases(NONE, 10)).isEmpty();
    }

    @Test
    void aReleaseWhoseManifestIsStillLinkedIsDroppedAsItWasRead() throws Exception {
        GcIndex index = newIndex();
        index.reference(APP, MANIFEST, List.of(LAYER, MANIFEST));
        index.releasing(APP, MANIFEST);
        GcIndex.Release read = sameIndex().unfinishedReleases(NONE, 10).getFirst();

        sameIndex().dropRelease(new GcIndex.Release(APP, MANIFEST, read.atMillis() - 1));
        assertThat(index.unfinishedReleases(NONE, 10)).as("recorded anew since: kept").hasSize(1);
        sameIndex().dropRelease(read);

        assertThat(index.unfinishedReleases(NONE, 10)).isEmpty();
        assertThat(index.references(LAYER)).isEqualTo(1);
    }

    @Test
    void onlyCandidatesAreCondemned() throws Exception {
        GcIndex index = newIndex();

        assertThat(index.condemn(digest("never touched"), NONE)).isEmpty();
    }

    @Test
    void anObjectNoIndexKnowsIsNominatedAsACandidateSinceItWasStoredAndAKnownOneIsNot() throws Exception {
        GcIndex index = newIndex();
        Digest orphan = digest("orphan");
        index.touch(APP, LAYER);
        index.reference(APP, MANIFEST, List.of(CONFIG));
        long dayAgo = System.currentTimeMillis() - Duration.ofDays(1).toMillis();

        assertThat(index.nominate(LAYER, dayAgo)).as("a candidate already, from its touch").isFalse();
        assertThat(index.nominate(CONFIG, dayAgo)).as("referenced").isFalse();
        assertThat(sameIndex().nominate(orphan, dayAgo)).isTrue();
        assertThat(index.nominate(orphan, dayAgo)).isFalse();

        assertThat(index.candidates(HOUR, 10)).containsExactly(orphan);
        Optional<GcIndex.Condemnation> condemned = index.condemn(orphan, HOUR);
        assertThat(condemned).isPresent();
        assertThat(index.nominate(orphan, dayAgo)).as("condemned").isFalse();
        index.bury(condemned.get());
        assertThat(index.touch(APP, orphan)).isTrue();
        assertThat(index.condemn(orphan, HOUR)).as("an upload after the sweep makes it young").isEmpty();
    }

    @Test
    void theSweepRemembersWhereItStopped() throws Exception {
        GcIndex index = newIndex();
        assertThat(index.sweptUpTo()).isEmpty();

        index.sweptUpTo(Optional.of(LAYER));
        assertThat(sameIndex().sweptUpTo()).contains(LAYER);

        index.sweptUpTo(Optional.empty());
        assertThat(sameIndex().sweptUpTo()).isEmpty();
    }

    @Test
    void candidatesComeOldestFirstAPageAtATime() throws Exception {
        GcIndex index = newIndex();
        index.touch(APP, digest("first"));
        index.touch(APP, digest("second"));
        index.touch(APP, digest("first"));

        List<Digest> candidates = sameIndex().candidates(NONE, 10);
        assertThat(candidates).containsExactlyInAnyOrder(digest("first"), digest("second"));
        assertThat(candidates.indexOf(digest("second"))).as("touched again: younger")
                .isLessThanOrEqualTo(candidates.indexOf(digest("first")));
        assertThat(sameIndex().candidates(NONE, 1)).hasSize(1);
    }

    @Test
    void anIndexCompleteOnlySinceNowCondemnsNothingWithinTheGrace() throws Exception {
        GcIndex index = newIndex();
        index.touch(APP, LAYER);
        assertThat(index.markComplete(index.generation(), false)).isTrue();

        assertThat(index.completeSince()).isPresent();
        assertThat(index.condemn(LAYER, HOUR)).isEmpty();
        assertThat(index.condemn(LAYER, NONE)).isPresent();
    }

    @Test
    void markingCompleteForAnotherGenerationFails() throws Exception {
        GcIndex index = newIndex();

        assertThat(index.markComplete(index.generation() + " then restarted", true)).isFalse();
    }

    @Test
    void aReferenceRacingACondemnationEitherKeepsTheDigestOrIsRefused() throws Exception {
        GcIndex index = newIndex();
        GcIndex other = sameIndex();
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 30; round++) {
                Digest layer = digest("layer " + round);
                Digest manifest = digest("manifest " + round);
                index.touch(APP, layer);
                CyclicBarrier start = new CyclicBarrier(2);
                Future<Set<Digest>> referenced = threads.submit(() -> {
                    start.await();
                    return index.reference(APP, manifest, List.of(layer));
                });
                Future<Optional<GcIndex.Condemnation>> condemned = threads.submit(() -> {
                    start.await();
                    return other.condemn(layer, NONE);
                });
                boolean refused = !referenced.get().isEmpty();
                assertThat(condemned.get().isPresent()).as("round " + round).isEqualTo(refused);
                assertThat(index.references(layer)).isEqualTo(refused ? 0 : 1);
            }
        } finally {
            threads.shutdownNow();
        }
    }
}
