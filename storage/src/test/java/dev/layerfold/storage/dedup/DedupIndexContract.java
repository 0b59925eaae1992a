package dev.layerfold.storage.dedup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layerfold.storage.Digest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The {@link DedupIndex} contract. An implementation's test extends this class and supplies a fresh
 * index per call of {@link #newIndex()} and another handle on it from {@link #sameIndex()}.
 */
public abstract class DedupIndexContract {

    private static final Duration CLAIM = Duration.ofMinutes(10);
    private static final Digest PACK = digest("pack");
    private static final Digest LAYER = digest("layer");
    private static final Digest RECORD = digest("record");

    protected abstract DedupIndex newIndex() throws Exception;

    protected abstract DedupIndex sameIndex() throws Exception;

    protected static Digest digest(String name) {
        return Digest.sha256(name.getBytes(StandardCharsets.UTF_8));
    }

    private static FileLocation at(long offset) {
        return new FileLocation(PACK, offset, 10, 20);
    }

    private static LayerState.Deduplicated deduplicated() {
        return new LayerState.Deduplicated(RECORD, 1000, 100);
    }

    private static void store(DedupIndex index, Digest... files) throws Exception {
        Map<Digest, FileLocation> locations = new LinkedHashMap<>();
        for (int i = 0; i < files.length; i++) {
            locations.put(files[i], at(i * 10L));
        }
        index.packStored(PACK, files.length * 10L, locations);
    }

    @Test
    void aFileIsClaimedByOneWorkerUntilItIsStored() throws Exception {
        DedupIndex index = newIndex();
        Digest file = digest("f");

        assertThat(index.claimFiles(List.of(file), "w1", CLAIM)).containsEntry(file, FileClaim.CLAIMED);
        assertThat(sameIndex().claimFiles(List.of(file), "w2", CLAIM)).containsEntry(file, FileClaim.BUSY);
        assertThat(index.claimFiles(List.of(file), "w1", CLAIM)).as("the holder extends its claim").containsEntry(file, FileClaim.CLAIMED);

        index.packStored(PACK, 10, Map.of(file, at(0)));

        assertThat(sameIndex().claimFiles(List.of(file), "w2", CLAIM)).containsEntry(file, FileClaim.stored(at(0)));
        assertThat(sameIndex().file(file)).contains(at(0));
    }

    @Test
    void manyFilesAreLookedUpInOneCallWhichAnswersOnlyTheStoredOnes() throws Exception {
        DedupIndex index = newIndex();
        List<Digest> files = new ArrayList<>();
        Map<Digest, FileLocation> stored = new LinkedHashMap<>();
        for (int i = 0; i < 2_500; i++) {
            Digest file = digest("many-" + i);
            files.add(file);
            if (i % 3 == 0) {
                stored.put(file, at(i * 10L));
            }
        }
        index.packStored(PACK, 25_000, stored);
        files.add(files.getFirst());

        assertThat(sameIndex().files(files)).isEqualTo(stored);
        assertThat(sameIndex().files(List.of(digest("never stored")))).isEmpty();
        assertThat(sameIndex().files(List.of())).isEmpty();
    }

    @Test
    void anExpiredClaimGoesToTheNextWorker() throws Exception {
        DedupIndex index = newIndex();
        Digest file = digest("f");
        index.claimFiles(List.of(file), "w1", Duration.ofMillis(1));
        Thread.sleep(25);

        assertThat(sameIndex().claimFiles(List.of(file), "w2", CLAIM)).containsEntry(file, FileClaim.CLAIMED);
    }

    @Test
    void concurrentClaimsOfOneFileHaveOneWinner() throws Exception {
        DedupIndex index = newIndex();
        DedupIndex other = sameIndex();
        Digest file = digest("contended");
        int workers = 6;
        CyclicBarrier start = new CyclicBarrier(workers);
        ExecutorService pool = Executors.newFixedThreadPool(workers);
        try {
            List<Future<FileClaim>> claims = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                DedupIndex handle = w % 2 == 0 ? index : other;
                String worker = "w" + w;
                claims.add(pool.submit((Callable<FileClaim>) () -> {
                    start.await();
                    return handle.claimFiles(List.of(file), worker, CLAIM).get(file);
                }));
            }
            int winners = 0;
            for (Future<FileClaim> claim : claims) {
                winners += claim.get() == FileClaim.CLAIMED ? 1 : 0;
            }
            assertThat(winners).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aFileStoredTwiceKeepsItsFirstLocation() throws Exception {
        DedupIndex index = newIndex();
        Digest file = digest("f");
        index.packStored(PACK, 10, Map.of(file, at(0)));
        index.packStored(digest("other pack"), 10, Map.of(file, new FileLocation(digest("other pack"), 0, 10, 20)));

        assertThat(index.file(file)).contains(at(0));
    }

    @Test
    void committingALayerCountsAReferenceToEachOfItsFilesOnce() throws Exception {
        DedupIndex index = newIndex();
        Digest a = digest("a");
        Digest b = digest("b");
        store(index, a, b);

        assertThat(index.commitLayer(LAYER, deduplicated(), List.of(a, b, a))).isTrue();
        assertThat(index.commitLayer(LAYER, deduplicated(), List.of(a, b))).as("idempotent").isTrue();
        assertThat(index.commitLayer(digest("layer 2"), deduplicated(), List.of(a))).isTrue();

        assertThat(sameIndex().references(a)).isEqualTo(2);
        assertThat(sameIndex().references(b)).isEqualTo(1);
        assertThat(sameIndex().layer(LAYER)).contains(deduplicated());
    }

    @Test
    void aLayerWhoseFilesAreNotAllStoredIsNotCommitted() throws Exception {
        DedupIndex index = newIndex();
        Digest a = digest("a");
        store(index, a);

        assertThat(index.commitLayer(LAYER, deduplicated(), List.of(a, digest("missing")))).isFalse();

        assertThat(index.layer(LAYER)).isEmpty();
        assertThat(index.references(a)).isZero();
    }

    @Test
    void releasingALayerGivesItsReferencesBack() throws Exception {
        DedupIndex index = newIndex();
        Digest a = digest("a");
        store(index, a);
        index.commitLayer(LAYER, deduplicated(), List.of(a));
        index.commitLayer(digest("layer 2"), deduplicated(), List.of(a));

        assertThat(index.releaseLayer(LAYER, List.of(a))).isTrue();
        assertThat(index.releaseLayer(LAYER, List.of(a))).as("only once").isFalse();

        assertThat(index.references(a)).isEqualTo(1);
        assertThat(index.layer(LAYER)).isEmpty();
    }

    @Test
    void onlyUnreferencedFilesStoredBeforeTheCutoffAreForgotten() throws Exception {
        DedupIndex index = newIndex();
        Digest live = digest("live");
        Digest released = digest("released");
        Digest fresh = digest("fresh");
        store(index, live, released);
        index.commitLayer(LAYER, deduplicated(), List.of(live, released));
        index.releaseLayer(LAYER, List.of(live, released));
        index.commitLayer(digest("layer 2"), deduplicated(), List.of(live));
        long cutoff = System.currentTimeMillis() + 60_000;

        assertThat(index.forgetUnreferenced(List.of(live, released), cutoff)).containsExactly(released);
        store(index, fresh);
        assertThat(index.forgetUnreferenced(List.of(fresh), 0)).as("stored after the cutoff").isEmpty();

        assertThat(index.file(released)).isEmpty();
        assertThat(index.file(live)).isPresent();
        assertThat(index.commitLayer(digest("layer 3"), deduplicated(), List.of(released)))
                .as("a commit naming a forgotten file fails, so the caller stores it again").isFalse();
    }

    @Test
    void unreferencedFilesAreFoundWithoutAScanUntilALayerReferencesThemOrTheyAreForgotten() throws Exception {
        DedupIndex index = newIndex();
        Digest committed = digest("committed");
        Digest neverCommitted = digest("never committed");
        Digest released = digest("released");
        store(index, committed, neverCommitted, released);
        long later = System.currentTimeMillis() + 60_000;
        assertThat(sameIndex().unreferencedFiles(later, 10)).containsExactlyInAnyOrder(committed, neverCommitted, released);
        assertThat(sameIndex().unreferencedFiles(0, 10)).as("stored after the cutoff").isEmpty();
        assertThat(sameIndex().unreferencedFiles(later, 2)).hasSize(2);

        index.commitLayer(LAYER, deduplicated(), List.of(committed, released));
        index.commitLayer(digest("layer 2"), deduplicated(), List.of(committed));
        index.releaseLayer(LAYER, List.of(committed, released));

        assertThat(sameIndex().unreferencedFiles(later, 10)).containsExactlyInAnyOrder(neverCommitted, released);
        index.forgetUnreferenced(sameIndex().unreferencedFiles(later, 10), later);
        assertThat(sameIndex().unreferencedFiles(later, 10)).isEmpty();
        assertThat(index.totals().uniqueFiles()).isEqualTo(1);
    }

    @Test
    void aLayerKeptIntactSaysWhyAndADeduplicatedOneStaysDeduplicated() throws Exception {
        DedupIndex index = newIndex();
        Digest a = digest("a");
        store(index, a);
        index.keepIntact(digest("zstd layer"), "zstd");
        index.commitLayer(LAYER, deduplicated(), List.of(a));
        index.keepIntact(LAYER, "late duplicate task");

        assertThat(index.layer(digest("zstd layer"))).contains(new LayerState.Intact("zstd"));
        assertThat(index.layer(LAYER)).contains(deduplicated());
    }

    @Test
    void aPackCountsAsStoredOnceFromWhenItIsRecordedWhetherOrNotALayerIsCommittedWithIt() throws Exception {
        DedupIndex index = newIndex();
        Map<Digest, FileLocation> first = Map.of(digest("a"), at(0));
        Map<Digest, FileLocation> second = Map.of(digest("b"), at(10));

        index.packStored(PACK, 20, first);
        index.packStored(PACK, 20, second);
        index.packStored(digest("another pack"), 7, Map.of(digest("c"), new FileLocation(digest("another pack"), 0, 7, 9)));

        assertThat(sameIndex().totals().storedBytes()).isEqualTo(20 + 7);
    }

    @Test
    void totalsAddUpWhatWasCommittedAndKeptIntact() throws Exception {
        DedupIndex index = newIndex();
        Digest a = digest("a");
        Digest b = digest("b");
        store(index, a, b);
        index.commitLayer(LAYER, new LayerState.Deduplicated(RECORD, 1000, 100), List.of(a, b));
        index.commitLayer(digest("layer 2"), new LayerState.Deduplicated(digest("record 2"), 500, 10), List.of(a));
        index.keepIntact(digest("x"), "not reproducible");
        index.keepIntact(digest("y"), "not reproducible");
        index.keepIntact(digest("z"), "zstd");

        DedupTotals totals = sameIndex().totals();

        assertThat(totals.layersDeduplicated()).isEqualTo(2);
        assertThat(totals.logicalBytes()).isEqualTo(1500);
        assertThat(totals.storedBytes()).as("the pack, and the two records").isEqualTo(20 + 110);
        assertThat(totals.fileReferences()).isEqualTo(3);
        assertThat(totals.uniqueFiles()).isEqualTo(2);
        assertThat(totals.intactByReason()).isEqualTo(Map.of("not reproducible", 2L, "zstd", 1L));
    }

    @Test
    void forgottenFilesCountAsDeadBytesOfTheirPackWhichIsSparseOnceItsLiveShareFalls() throws Exception {
        DedupIndex index = newIndex();
        Digest a = digest("a");
        Digest b = digest("b");
        Digest c = digest("c");
        store(index, a, b, c);
        index.commitLayer(LAYER, deduplicated(), List.of(a));
        long later = System.currentTimeMillis() + 60_000;

        index.forgetUnreferenced(List.of(b), later);
        assertThat(index.sparsePacks(0.5, 10)).as("two thirds still live").isEmpty();
        index.forgetUnreferenced(List.of(c), later);

        assertThat(sameIndex().sparsePacks(0.5, 10)).containsExactly(new PackUse(PACK, 30, 20, 1));
    }

    @Test
    void relocatingMovesTheFilesStillInTheOldPackAndRetiresIt() throws Exception {
        DedupIndex index = newIndex();
        Digest kept = digest("kept");
        Digest gone = digest("gone");
        Digest forgottenMeanwhile = digest("forgotten meanwhile");
        store(index, gone, kept, forgottenMeanwhile);
        index.commitLayer(LAYER, deduplicated(), List.of(kept));
        long later = System.currentTimeMillis() + 60_000;
        index.forgetUnreferenced(List.of(gone), later);
        Digest rewritten = digest("rewritten pack");
        Map<Digest, FileLocation> moved = new LinkedHashMap<>();
        moved.put(kept, new FileLocation(rewritten, 0, 10, 20));
        moved.put(forgottenMeanwhile, new FileLocation(rewritten, 10, 10, 20));
        index.forgetUnreferenced(List.of(forgottenMeanwhile), later);

        PackCopy copy = new PackCopy(rewritten, 20, Map.of(kept, 10L, forgottenMeanwhile, 20L), moved);
        assertThat(index.relocate(PACK, 2, Optional.of(copy))).as("stored again since").isFalse();
        assertThat(index.relocate(PACK, 1, Optional.of(copy))).isTrue();

        assertThat(sameIndex().file(kept)).contains(new FileLocation(rewritten, 0, 10, 20));
        assertThat(sameIndex().file(forgottenMeanwhile)).as("forgotten before the switch: not brought back").isEmpty();
        assertThat(index.totals().storedBytes()).as("the new pack instead of the old, and the record").isEqualTo(20 + 100);
        assertThat(index.sparsePacks(0.6, 10)).as("the frame of the file forgotten meanwhile is dead in the new pack")
                .containsExactly(new PackUse(rewritten, 20, 10, 1));
        assertThat(index.retiredPacks(later, 10)).containsExactly(PACK);
        assertThat(index.retiredPacks(0, 10)).as("retired from now").isEmpty();
        assertThat(index.relocate(PACK, 1, Optional.empty())).as("retired already").isFalse();
    }

    @Test
    void aPackIsCondemnedOnlyWhenNotStoredAndWhileCondemnedItCannotBeStoredAgain() throws Exception {
        DedupIndex index = newIndex();
        Digest a = digest("a");
        store(index, a);
        assertThat(index.condemnPack(PACK, Long.MAX_VALUE)).as("stored").isFalse();
        Digest orphan = digest("orphan pack");

        assertThat(index.condemnPack(orphan, 0)).isTrue();
        assertThat(sameIndex().condemnPack(orphan, 0)).as("marked already").isFalse();
        Map<Digest, FileLocation> files = Map.of(digest("b"), new FileLocation(orphan, 0, 10, 20));
        assertThatThrownBy(() -> sameIndex().packStored(orphan, 10, files))
                .isInstanceOf(PackCondemnedException.class);
        assertThat(index.file(digest("b"))).isEmpty();

        index.buryPack(orphan);
        index.packStored(orphan, 10, files);
        assertThat(index.file(digest("b"))).isPresent();
    }

    @Test
    void aPackWithNothingLiveIsOnlyRetired() throws Exception {
        DedupIndex index = newIndex();
        store(index, digest("a"));
        index.forgetUnreferenced(List.of(digest("a")), System.currentTimeMillis() + 60_000);

        assertThat(index.relocate(PACK, 1, Optional.empty())).isTrue();

        assertThat(index.totals().storedBytes()).isZero();
        assertThat(index.sparsePacks(1, 10)).isEmpty();
        assertThat(index.retiredPacks(System.currentTimeMillis() + 60_000, 10)).containsExactly(PACK);
        assertThat(index.condemnPack(PACK, System.currentTimeMillis() - 60_000)).as("retired within the grace").isFalse();
        assertThat(index.condemnPack(PACK, System.currentTimeMillis() + 60_000)).isTrue();
    }

    @Test
    void aRetiredPackStoredAgainIsNoLongerRetired() throws Exception {
        DedupIndex index = newIndex();
        Digest a = digest("a");
        store(index, a);
        index.commitLayer(LAYER, deduplicated(), List.of(a));
        Digest rewritten = digest("rewritten pack");
        index.relocate(PACK, 1, Optional.of(new PackCopy(rewritten, 10, Map.of(a, 0L), Map.of(a, new FileLocation(rewritten, 0, 10, 20)))));

        store(index, digest("same bytes written again"));
        assertThat(index.relocate(PACK, 1, Optional.empty())).as("stored again: another generation").isFalse();

        assertThat(index.retiredPacks(System.currentTimeMillis() + 60_000, 10)).isEmpty();
        assertThat(index.condemnPack(PACK, Long.MAX_VALUE)).isFalse();
    }
}
