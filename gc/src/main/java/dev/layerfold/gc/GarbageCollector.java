package dev.layerfold.gc;

import dev.layerfold.dedup.store.LivePackCopier;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.dedup.DedupIndex;
import dev.layerfold.storage.dedup.FileLocation;
import dev.layerfold.storage.dedup.LayerRecordFiles;
import dev.layerfold.storage.dedup.LayerState;
import dev.layerfold.storage.dedup.PackCopy;
import dev.layerfold.storage.gc.GcIndex;
import dev.layerfold.storage.gc.ManifestTargets;
import dev.layerfold.storage.lease.Lease;
import dev.layerfold.storage.lease.Leases;
import dev.layerfold.storage.metadata.MetadataStore;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

/**
 * Removes what no manifest of any repository references, while the registry serves (the protocol
 * and why it is safe: docs/design.md, "Garbage collection"). It works from the candidates of the
 * {@link GcIndex}, to which a bounded sweep of the bucket's listing per run adds objects no index knows
 * ({@link OrphanSweep}); where deduplication runs it then rewrites sparse packs ({@link PackCompaction}).
 * Every delete is paced.
 *
 * <p>Given {@link Leases}, one process collects at a time; without (a local directory), each on its
 * own, which is safe because a digest is condemned by one collector only.
 */
public final class GarbageCollector {

    public static final String LEASE = "gc";
    private static final Duration LEASE_TIME_TO_LIVE = Duration.ofSeconds(30);

    /** Called by the collector at its steps, so that tests can interleave requests exactly. */
    public interface Observer {
        Observer NONE = new Observer() {
        };

        /** The digest was condemned and nothing of it is deleted yet. */
        default void condemned(GcIndex.Condemnation condemnation) throws IOException {
        }

        /** A sparse pack's live files were copied (or none was live); the index is not switched yet. */
        default void packCopied(Digest pack, Optional<PackCopy> copy) throws IOException {
        }

        /** A retired pack was condemned and is not deleted yet. */
        default void packCondemned(Digest pack) throws IOException {
        }
    }

    /** The dedup pipeline's index, the reader of its layer records and the copier of its packs, where deduplication runs. */
    public record Dedup(DedupIndex index, LayerRecordFiles records, LivePackCopier packs) {
    }

    private final BlobStore blobs;
    private final MetadataStore metadata;
    private final GcIndex index;
    private final Optional<Dedup> dedup;
    private final ReferenceRebuild rebuild;
    private final Optional<Leases> leases;
    private final GcSettings settings;
    private final Clock clock;
    private final Observer observer;
    private final AtomicReference<CollectionReport> last = new AtomicReference<>();

    public GarbageCollector(BlobStore blobs, MetadataStore metadata, GcIndex index, Optional<Dedup> dedup,
                            ManifestTargets targets, Optional<Leases> leases, GcSettings settings, Clock clock,
                            Observer observer) {
        this.blobs = blobs;
        this.metadata = metadata;
        this.index = index;
        this.dedup = dedup;
        this.rebuild = new ReferenceRebuild(blobs, metadata, index, targets);
        this.leases = leases;
        this.settings = settings;
        this.clock = clock;
        this.observer = observer;
    }

    /** The last run's report in this process, if any. */
    public Optional<CollectionReport> lastRun() {
        return Optional.ofNullable(last.get());
    }

    /** One run, unless another process holds the lease (empty). */
    public Optional<CollectionReport> collect() throws IOException {
        if (leases.isEmpty()) {
            return Optional.of(remember(run(Optional.empty())));
        }
        Optional<Lease> lease = leases.get().tryAcquire(LEASE, LEASE_TIME_TO_LIVE);
        if (lease.isEmpty()) {
            return Optional.empty();
        }
        try (Lease held = lease.get()) {
            return Optional.of(remember(run(Optional.of(held))));
        }
    }

    private CollectionReport remember(CollectionReport report) {
        last.set(report);
        return report;
    }

    private CollectionReport run(Optional<Lease> lease) throws IOException {
        Instant started = clock.instant();
        if (index.completeSince().isEmpty()) {
            rebuild.run();
            return new CollectionReport(started, clock.instant(), true, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, false);
        }
        Tally tally = new Tally();
        Pacer pacer = new Pacer(settings.deletesPerSecond());
        // Candidates that stay (referenced ones leave; young ones and those another collector holds do
        // not) come back on the next page: the run ends at a page of nothing new.
        Set<Digest> seen = new HashSet<>();
        boolean stopped = false;
        BooleanSupplier mayGoOn = () -> lease.isEmpty() || lease.get().isHeld();
        try {
            finishInterruptedDeletes();
            OrphanSweep.Result swept = new OrphanSweep(blobs, index, settings, clock).run(mayGoOn, pacer);
            tally.orphansNominated = swept.nominated();
            stopped = swept.stoppedEarly();
            while (!stopped) {
                List<Digest> fresh = index.candidates(settings.grace(), settings.pageSize()).stream()
                        .filter(seen::add).toList();
                if (fresh.isEmpty()) {
                    break;
                }
                for (Digest candidate : fresh) {
                    if (lease.isPresent() && !lease.get().isHeld()) {
                        stopped = true;
                        break;
                    }
                    tally.judged++;
                    Optional<GcIndex.Condemnation> condemned = index.condemn(candidate, settings.grace());
                    if (condemned.isPresent()) {
                        observer.condemned(condemned.get());
                        stopped = !remove(condemned.get(), pacer, tally);
                        if (stopped) {
                            break;
                        }
                    }
                }
            }
            if (!stopped && dedup.isPresent()) {
                stopped = !forgetUnreferencedFiles(mayGoOn, tally);
            }
            if (!stopped && dedup.isPresent()) {
                PackCompaction.Result packs = new PackCompaction(blobs, dedup.get().index(), dedup.get().packs(), settings,
                        clock, observer).run(mayGoOn);
                tally.packsRewritten = packs.packsRewritten();
                tally.packBytesReclaimed = packs.bytesReclaimed();
                tally.retiredPacksDeleted = packs.retiredPacksDeleted();
                stopped = packs.stoppedEarly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("garbage collection interrupted");
        }
        return new CollectionReport(started, clock.instant(), false, tally.judged, tally.removed, tally.bytes,
                tally.released, tally.forgotten, tally.packBytes, tally.orphansNominated, tally.packsRewritten, tally.packBytesReclaimed,
                tally.retiredPacksDeleted, stopped);
    }

    /**
     * A manifest delete killed between its unlink and its unreference left references that nothing
     * else would ever remove, keeping every blob they name: one page of those older than the grace per
     * run (a delete in progress is milliseconds old). A manifest still linked was never unlinked.
     */
    private void finishInterruptedDeletes() throws IOException {
        for (GcIndex.Release release : index.unfinishedReleases(settings.grace(), settings.pageSize())) {
            if (metadata.manifest(release.repository(), release.manifest()).isPresent()) {
                index.dropRelease(release);
            } else {
                index.finishRelease(release);
            }
        }
    }

    /**
     * Releases a deduplicated layer, then deletes the bytes and the links, then buries the mark.
     * False if the mark is too old to delete by (this collector was too slow): it stops the run.
     */
    private boolean remove(GcIndex.Condemnation condemnation, Pacer pacer, Tally tally)
            throws IOException, InterruptedException {
        Digest digest = condemnation.digest();
        if (dedup.isPresent() && dedup.get().index().layer(digest).orElse(null) instanceof LayerState.Deduplicated layer) {
            if (!index.stillCondemned(condemnation)) {
                return false;
            }
            release(digest, layer, pacer, tally);
        }
        if (dedup.isPresent() && !isDedupGarbage(digest)) {
            index.bury(condemnation);
            return true;
        }
        Optional<Long> size = blobs.size(digest);
        pacer.pace();
        if (!index.stillCondemned(condemnation)) {
            return false;
        }
        if (blobs.delete(digest)) {
            tally.removed++;
            tally.bytes += size.orElse(0L);
        }
        for (RepositoryName repository : condemnation.linkedIn()) {
            metadata.unlinkBlob(repository, digest);
        }
        if (dedup.isPresent()) {
            dedup.get().index().buryPack(digest);
        }
        index.bury(condemnation);
        return true;
    }

    /**
     * Whether a condemned digest may go as far as deduplication is concerned. The GC index knows nothing
     * of packs and records (nothing touches them), so one the sweep nominated may be in use: a stored
     * pack is refused by {@link DedupIndex#condemnPack}, which otherwise marks it so that a worker writing
     * the same pack again waits for the delete; a record is never deleted this way (an orphaned one is
     * small, and one a worker is about to commit must stay), nor a pack retired within the pack grace
     * (restores may still read it).
     */
    private boolean isDedupGarbage(Digest digest) throws IOException {
        return !dedup.get().records().isRecord(digest)
                && dedup.get().index().condemnPack(digest, clock.millis() - settings.packGrace().toMillis());
    }

    private void release(Digest layer, LayerState.Deduplicated state, Pacer pacer, Tally tally)
            throws IOException, InterruptedException {
        DedupIndex files = dedup.get().index();
        Map<Digest, FileLocation> held = dedup.get().records().files(state.record());
        if (files.releaseLayer(layer, held.keySet())) {
            tally.released++;
        }
        forget(held, tally);
        Optional<Long> recordSize = blobs.size(state.record());
        pacer.pace();
        if (blobs.delete(state.record())) {
            tally.bytes += recordSize.orElse(0L);
        }
    }

    /**
     * Forgets the files no layer references that the releases left (stored within the
     * unreferenced-file age then) or that no release will ever reach (stored for a layer whose worker
     * was killed before committing, the layer deleted before its task came again). False if the lease
     * was lost on the way.
     */
    private boolean forgetUnreferencedFiles(BooleanSupplier mayGoOn, Tally tally) throws IOException {
        DedupIndex files = dedup.get().index();
        long storedBefore = storedBefore();
        while (mayGoOn.getAsBoolean()) {
            List<Digest> page = files.unreferencedFiles(storedBefore, settings.pageSize());
            if (page.isEmpty() || forget(files.files(page), tally).isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /** Forgets those of {@code files} (with their locations) that nothing references and are old enough; the forgotten ones. */
    private Collection<Digest> forget(Map<Digest, FileLocation> files, Tally tally) throws IOException {
        Collection<Digest> forgotten = dedup.get().index().forgetUnreferenced(files.keySet(), storedBefore());
        tally.forgotten += forgotten.size();
        for (Digest file : forgotten) {
            tally.packBytes += files.get(file).length();
        }
        return forgotten;
    }

    /** Files stored since are kept though unreferenced: a worker may be about to commit the layer it stored them for. */
    private long storedBefore() {
        return clock.millis() - settings.unreferencedFileAge().toMillis();
    }

    private static final class Tally {
        long judged;
        long removed;
        long bytes;
        long released;
        long forgotten;
        long packBytes;
        long orphansNominated;
        long packsRewritten;
        long packBytesReclaimed;
        long retiredPacksDeleted;
    }
}
