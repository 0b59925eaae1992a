package dev.layerfold.gc;

import dev.layerfold.dedup.store.LivePackCopier;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.dedup.DedupIndex;
import dev.layerfold.storage.dedup.PackCopy;
import dev.layerfold.storage.dedup.PackUse;
import java.io.IOException;
import java.time.Clock;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * Gives back the space of forgotten deduplicated files: rewrites the packs whose live share fell
 * below {@link GcSettings#packLiveShare()} (live files copied into a new pack, then switched in the
 * index in one step) and deletes the packs retired so at least {@link GcSettings#packGrace()} ago,
 * under a mark a worker storing the same pack again respects. Why no restore or dedup worker can be
 * hurt: docs/design.md, "Pack rewriting".
 */
public final class PackCompaction {

    private static final System.Logger LOG = System.getLogger(PackCompaction.class.getName());

    /** What one pass did. */
    public record Result(long packsRewritten, long bytesReclaimed, long retiredPacksDeleted, boolean stoppedEarly) {
    }

    private final BlobStore blobs;
    private final DedupIndex index;
    private final LivePackCopier copier;
    private final GcSettings settings;
    private final Clock clock;
    private final GarbageCollector.Observer observer;

    public PackCompaction(BlobStore blobs, DedupIndex index, LivePackCopier copier, GcSettings settings, Clock clock,
                          GarbageCollector.Observer observer) {
        this.blobs = blobs;
        this.index = index;
        this.copier = copier;
        this.settings = settings;
        this.clock = clock;
        this.observer = observer;
    }

    /** One pass; {@code mayGoOn} is asked before each pack (the collector's lease). */
    public Result run(BooleanSupplier mayGoOn) throws IOException, InterruptedException {
        Pacer bytes = new Pacer(settings.rewriteBytesPerSecond());
        Pacer deletes = new Pacer(settings.deletesPerSecond());
        long rewritten = 0;
        long reclaimed = 0;
        long deleted = 0;
        for (PackUse use : index.sparsePacks(settings.packLiveShare(), settings.pageSize())) {
            if (!mayGoOn.getAsBoolean()) {
                return new Result(rewritten, reclaimed, deleted, true);
            }
            // The pack is read once and its live share written once: pace by what is read.
            bytes.pace(use.size());
            Optional<PackCopy> copy;
            try {
                copy = copier.copyLive(use.pack());
            } catch (IOException e) {
                // A damaged or missing pack must not stop the others: the checker reports its files.
                LOG.log(System.Logger.Level.WARNING, "cannot rewrite pack " + use.pack() + "; it stays as it is", e);
                continue;
            }
            observer.packCopied(use.pack(), copy);
            if (index.relocate(use.pack(), use.generation(), copy)) {
                rewritten++;
                reclaimed += use.size() - copy.map(PackCopy::size).orElse(0L);
            }
            // A copy not switched to (the pack was stored again meanwhile) is an orphan for the sweep.
        }
        long retiredBefore = clock.millis() - settings.packGrace().toMillis();
        for (Digest retired : index.retiredPacks(retiredBefore, settings.pageSize())) {
            if (!mayGoOn.getAsBoolean()) {
                return new Result(rewritten, reclaimed, deleted, true);
            }
            if (!index.condemnPack(retired, retiredBefore)) {
                continue;
            }
            long marked = System.nanoTime();
            observer.packCondemned(retired);
            deletes.pace();
            if (!mayGoOn.getAsBoolean() || System.nanoTime() - marked > DedupIndex.PACK_CONDEMNATION_LIFETIME.toNanos() / 2) {
                return new Result(rewritten, reclaimed, deleted, true);
            }
            blobs.delete(retired);
            index.buryPack(retired);
            deleted++;
        }
        return new Result(rewritten, reclaimed, deleted, false);
    }
}
