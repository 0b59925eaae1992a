package dev.layerfold.gc;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.blob.ListedBlob;
import dev.layerfold.storage.gc.GcIndex;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * Finds what the bucket holds and no index knows (blobs from before the GC index, packs a killed
 * dedup worker published but never recorded, copies of a pack rewrite that was not switched to) by
 * listing the blobs a page at a time from where the last run stopped, and hands each one older than
 * the grace to the collector as a candidate ({@link GcIndex#nominate}). It deletes nothing itself: the
 * candidate is then judged, condemned and deleted like any other, under the same atomic marks, so an
 * upload or a dedup worker writing the same bytes at that moment is safe as it is from any collection.
 */
final class OrphanSweep {

    private static final int PAGE = 1_000;

    private final BlobStore blobs;
    private final GcIndex index;
    private final GcSettings settings;
    private final Clock clock;

    OrphanSweep(BlobStore blobs, GcIndex index, GcSettings settings, Clock clock) {
        this.blobs = blobs;
        this.index = index;
        this.settings = settings;
        this.clock = clock;
    }

    /** What one pass found: objects listed and those nominated. */
    record Result(long listed, long nominated, boolean stoppedEarly) {
    }

    /** Lists up to {@link GcSettings#sweepObjectsPerRun()} objects from where the last pass stopped; pages paced. */
    Result run(BooleanSupplier mayGoOn, Pacer pacer) throws IOException, InterruptedException {
        Instant cutoff = clock.instant().minus(settings.grace());
        Optional<Digest> after = index.sweptUpTo();
        long listed = 0;
        long nominated = 0;
        while (listed < settings.sweepObjectsPerRun()) {
            if (!mayGoOn.getAsBoolean()) {
                return new Result(listed, nominated, true);
            }
            pacer.pace();
            int asked = (int) Math.min(PAGE, settings.sweepObjectsPerRun() - listed);
            List<ListedBlob> page = blobs.list(after, asked);
            for (ListedBlob blob : page) {
                // A young object may be a write in progress whose index entry is still to come.
                if (blob.lastModified().isBefore(cutoff) && index.nominate(blob.digest(), blob.lastModified().toEpochMilli())) {
                    nominated++;
                }
            }
            listed += page.size();
            if (page.size() < asked) {
                index.sweptUpTo(Optional.empty());
                break;
            }
            after = Optional.of(page.getLast().digest());
            index.sweptUpTo(after);
        }
        return new Result(listed, nominated, false);
    }
}
