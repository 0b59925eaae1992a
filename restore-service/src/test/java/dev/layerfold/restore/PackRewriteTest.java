package dev.layerfold.restore;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layerfold.dedup.codec.LayerRebuilder;
import dev.layerfold.dedup.codec.identify.StandardEncoders;
import dev.layerfold.dedup.store.ContentAddressedWriter;
import dev.layerfold.dedup.store.LivePackCopier;
import dev.layerfold.dedup.store.StoredFiles;
import dev.layerfold.gc.CollectionReport;
import dev.layerfold.gc.GarbageCollector;
import dev.layerfold.gc.GcSettings;
import dev.layerfold.gc.PackCompaction;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.dedup.DedupIndex;
import dev.layerfold.storage.dedup.FileLocation;
import dev.layerfold.storage.dedup.LayerState;
import dev.layerfold.storage.dedup.PackCondemnedException;
import dev.layerfold.storage.dedup.PackCopy;
import dev.layerfold.storage.gc.GcIndex;
import dev.layerfold.storage.metadata.MetadataStore;
import dev.layerfold.storage.predictor.SettableClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rewriting a sparse pack while the registry serves: restores that located their files before the
 * switch, dedup workers adding references to files in the pack, and a collector killed between its
 * steps; and the collector's sweep of objects no index knows, which must leave young ones (a write in
 * progress) and every pack and record in use. Every test starts from two layers sharing ten files: the
 * first is released, so that its pack is half dead, and the second still reads the shared ten from it.
 */
abstract class PackRewriteTest {

    private static final GcSettings SETTINGS = new GcSettings(Duration.ZERO, 1_000, 500, Duration.ZERO, 0.9,
            Duration.ofHours(1), 1L << 40, 10_000);

    @TempDir
    Path dir;

    protected BlobStore blobs;
    protected DedupIndex index;
    protected MetadataStore metadata;
    protected GcIndex gcIndex;
    /** A minute behind: every object the test writes is younger than the clock says, until it is moved. */
    private final SettableClock clock = new SettableClock(Instant.now().minus(Duration.ofMinutes(1)));
    private final HeldExecutor heldRebuilds = new HeldExecutor();
    private final ExecutorService fetchers = Executors.newFixedThreadPool(2);
    private LayerRestorer restorer;
    private byte[] kept;
    private Digest pack;

    /** Opens the stores of one backend into {@link #blobs}, {@link #index}, {@link #metadata} and {@link #gcIndex}. */
    protected abstract void openStores(Path dir) throws IOException;

    protected abstract void closeStores();

    @BeforeEach
    void twoLayersSharingHalfAPack() throws IOException {
        openStores(dir);
        restorer = new LayerRestorer(blobs, index, new LayerRebuilder(StandardEncoders.factory()), heldRebuilds, fetchers,
                dir.resolve("spool"), new SimpleMeterRegistry());
        byte[] released = deduplicated(new Random(7), 20);
        kept = deduplicated(new Random(7), 10);
        gcIndex.reference(RepositoryName.of("app"), Digest.sha256("a manifest naming the kept layer".getBytes(UTF_8)),
                List.of(Digest.sha256(kept)));
        Map<Digest, FileLocation> files = filesOf(released);
        pack = files.values().iterator().next().pack();
        assertThat(index.releaseLayer(Digest.sha256(released), files.keySet())).isTrue();
        assertThat(index.forgetUnreferenced(files.keySet(), System.currentTimeMillis() + 60_000)).hasSize(10);
    }

    @AfterEach
    void close() {
        fetchers.shutdownNow();
        closeStores();
    }

    @Test
    void aRestoreThatLocatedItsFilesBeforeTheRewriteReadsTheOldPackWhichStaysForThePackGrace() throws Exception {
        InputStream before = restorer.open(Digest.sha256(kept), 0, -1).orElseThrow();

        PackCompaction.Result result = compaction(GarbageCollector.Observer.NONE).run(() -> true);
        heldRebuilds.runHeld();

        assertThat(result.packsRewritten()).isEqualTo(1);
        assertThat(result.bytesReclaimed()).isPositive();
        assertThat(before.readAllBytes()).as("read from the retired pack").isEqualTo(kept);
        assertThat(blobs.size(pack)).as("kept for the pack grace").isPresent();
        assertThat(packsOf(kept)).doesNotContain(pack);
        assertThat(restored(kept)).as("read from the new pack").isEqualTo(kept);

        clock.advance(Duration.ofHours(2));
        assertThat(compaction(GarbageCollector.Observer.NONE).run(() -> true).retiredPacksDeleted()).isEqualTo(1);

        assertThat(blobs.size(pack)).isEmpty();
        assertThat(restored(kept)).isEqualTo(kept);
        assertThat(index.totals().storedBytes() - recordSize(kept)).as("only the new pack is counted")
                .isEqualTo(blobs.size(packsOf(kept).iterator().next()).orElseThrow());
    }

    @Test
    void aLayerDeduplicatedWhileThePackIsRewrittenReferencesFilesThatEndUpInTheNewPack() throws Exception {
        byte[][] added = new byte[1][];
        compaction(new GarbageCollector.Observer() {
            @Override
            public void packCopied(Digest copied, Optional<PackCopy> copy) throws IOException {
                // The worker finds five files stored in the old pack, proves its layer from there and commits.
                added[0] = deduplicated(new Random(7), 5);
            }
        }).run(() -> true);
        heldRebuilds.runHeld();

        assertThat(packsOf(added[0])).doesNotContain(pack);
        Digest shared = filesOf(added[0]).keySet().iterator().next();
        assertThat(index.references(shared)).isEqualTo(2);
        clock.advance(Duration.ofHours(2));
        compaction(GarbageCollector.Observer.NONE).run(() -> true);
        assertThat(blobs.size(pack)).isEmpty();
        assertThat(restored(added[0])).isEqualTo(added[0]);
        assertThat(restored(kept)).isEqualTo(kept);
    }

    @Test
    void aCollectorKilledAfterCopyingLeavesThePackInUseAndTheNextRunRewritesIt() throws Exception {
        assertThatThrownBy(() -> compaction(new GarbageCollector.Observer() {
            @Override
            public void packCopied(Digest copied, Optional<PackCopy> copy) throws IOException {
                throw new IOException("killed");
            }
        }).run(() -> true)).hasMessage("killed");

        assertThat(packsOf(kept)).containsExactly(pack);
        assertThat(restored(kept)).isEqualTo(kept);

        assertThat(compaction(GarbageCollector.Observer.NONE).run(() -> true).packsRewritten()).isEqualTo(1);
        assertThat(packsOf(kept)).doesNotContain(pack);
        assertThat(restored(kept)).isEqualTo(kept);
    }

    @Test
    void aCollectorKilledAfterCondemningARetiredPackLeavesItRetiredAndAWorkerCannotStoreItMeanwhile() throws Exception {
        compaction(GarbageCollector.Observer.NONE).run(() -> true);
        clock.advance(Duration.ofHours(2));
        assertThatThrownBy(() -> compaction(new GarbageCollector.Observer() {
            @Override
            public void packCondemned(Digest condemned) throws IOException {
                throw new IOException("killed");
            }
        }).run(() -> true)).hasMessage("killed");

        assertThat(blobs.size(pack)).isPresent();
        // A worker that wrote the same bytes again retries its layer later.
        assertThatThrownBy(() -> index.packStored(pack, 1, Map.of(Digest.sha256(new byte[] {1}), new FileLocation(pack, 0, 1, 1))))
                .isInstanceOf(PackCondemnedException.class);
        assertThat(index.retiredPacks(Long.MAX_VALUE, 10)).as("a later run deletes it").contains(pack);
        assertThat(restored(kept)).isEqualTo(kept);
    }

    @Test
    void theSweepCollectsAnOrphanOnceOlderThanTheGraceAndLeavesPacksAndRecordsInUse() throws Exception {
        Digest orphan = new ContentAddressedWriter(blobs).write("a pack a killed worker never recorded".getBytes(UTF_8));
        GarbageCollector collector = new GarbageCollector(blobs, metadata, gcIndex,
                Optional.of(new GarbageCollector.Dedup(index, new StoredFiles(blobs), new LivePackCopier(blobs, index))),
                (manifest, mediaType) -> List.of(), Optional.empty(), SETTINGS, clock, GarbageCollector.Observer.NONE);

        CollectionReport young = collector.collect().orElseThrow();

        assertThat(young.orphansNominated()).as("written after the clock's now: a write in progress").isZero();
        assertThat(blobs.size(orphan)).isPresent();

        clock.advance(Duration.ofMinutes(2));
        CollectionReport old = collector.collect().orElseThrow();

        assertThat(old.orphansNominated()).as("the orphan, and packs and records no GC index knows").isGreaterThan(1);
        assertThat(blobs.size(orphan)).isEmpty();
        assertThat(old.blobsRemoved()).as("only the orphan: packs and records in use are refused").isEqualTo(1);
        assertThat(blobs.size(pack)).as("rewritten by the first run, retired within the pack grace").isPresent();
        assertThat(restored(kept)).isEqualTo(kept);
        assertThat(gcIndex.sweptUpTo()).as("the listing ran out: the next run starts over").isEmpty();
    }

    /**
     * A worker killed after storing a layer's new files and before committing it, whose layer was then
     * deleted before its task came again, leaves files no release will ever reach: the collector finds
     * them in the index (no scan) once they are older than the unreferenced-file age, and forgets them.
     */
    @Test
    void filesOfALayerNeverCommittedAreForgottenOnceOlderThanTheUnreferencedFileAge() throws Exception {
        byte[] layer = DeduplicatedLayers.layer(new Random(11), 6);
        DeduplicatedLayers.push(blobs, layer);
        DedupIndex killedBeforeCommit = (DedupIndex) Proxy.newProxyInstance(DedupIndex.class.getClassLoader(),
                new Class<?>[] {DedupIndex.class}, (proxy, method, arguments) -> {
                    if (method.getName().equals("commitLayer")) {
                        throw new IOException("the worker was killed before it committed");
                    }
                    try {
                        return method.invoke(index, arguments);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        assertThatThrownBy(() -> DeduplicatedLayers.deduplicator(blobs, killedBeforeCommit, gcIndex, dir.resolve("scratch"))
                .deduplicate(DeduplicatedLayers.task(layer), "killed")).isInstanceOf(IOException.class);
        blobs.delete(Digest.sha256(layer));
        long keptFiles = index.totals().uniqueFiles() - 6;
        GarbageCollector collector = new GarbageCollector(blobs, metadata, gcIndex,
                Optional.of(new GarbageCollector.Dedup(index, new StoredFiles(blobs), new LivePackCopier(blobs, index))),
                (manifest, mediaType) -> List.of(), Optional.empty(), SETTINGS, clock, GarbageCollector.Observer.NONE);

        assertThat(collector.collect().orElseThrow().filesForgotten()).as("stored after the clock's now: a commit may follow").isZero();
        clock.advance(Duration.ofMinutes(2));
        CollectionReport old = collector.collect().orElseThrow();

        assertThat(old.filesForgotten()).isEqualTo(6);
        assertThat(index.totals().uniqueFiles()).isEqualTo(keptFiles);
        assertThat(restored(kept)).isEqualTo(kept);
    }

    private PackCompaction compaction(GarbageCollector.Observer observer) {
        return new PackCompaction(blobs, index, new LivePackCopier(blobs, index), SETTINGS, clock, observer);
    }

    private byte[] deduplicated(Random random, int files) throws IOException {
        return DeduplicatedLayers.deduplicated(blobs, index, gcIndex, dir.resolve("scratch"), DeduplicatedLayers.layer(random, files));
    }

    private byte[] restored(byte[] layer) throws IOException {
        InputStream in = restorer.open(Digest.sha256(layer), 0, -1).orElseThrow();
        heldRebuilds.runHeld();
        return in.readAllBytes();
    }

    private Map<Digest, FileLocation> filesOf(byte[] layer) throws IOException {
        LayerState.Deduplicated state = (LayerState.Deduplicated) index.layer(Digest.sha256(layer)).orElseThrow();
        return new StoredFiles(blobs).files(state.record());
    }

    /** Where the index locates the files of a layer now. */
    private Set<Digest> packsOf(byte[] layer) throws IOException {
        return index.files(filesOf(layer).keySet()).values().stream().map(FileLocation::pack).collect(Collectors.toSet());
    }

    private long recordSize(byte[] layer) throws IOException {
        return ((LayerState.Deduplicated) index.layer(Digest.sha256(layer)).orElseThrow()).recordSize();
    }
}
