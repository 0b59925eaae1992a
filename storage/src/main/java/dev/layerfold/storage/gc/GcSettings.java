package dev.layerfold.storage.gc;

import java.time.Duration;

/**
 * How the collector works.
 *
 * @param grace                how long a blob is kept after its last upload, mount or reference: the
 *                             longest a push may take between its first blob and its manifest
 * @param deletesPerSecond     deletes sent to the blob store per second at most, so clients do not notice
 * @param pageSize             candidates judged per read of the index
 * @param unreferencedFileAge  a deduplicated file with no reference is forgotten once stored this long
 *                             (a file stored for a layer whose commit is still to come is kept)
 */
public record GcSettings(Duration grace, double deletesPerSecond, int pageSize, Duration unreferencedFileAge) {

    public static final GcSettings DEFAULTS = new GcSettings(Duration.ofHours(24), 50, 500, Duration.ofHours(1));

    public GcSettings {
        if (grace.isNegative() || deletesPerSecond <= 0 || pageSize <= 0 || unreferencedFileAge.isNegative()) {
            throw new IllegalArgumentException("GC settings need a grace and file age of zero or more, and positive "
                    + "deletes per second and page size; got " + grace + ", " + deletesPerSecond + ", " + pageSize
                    + ", " + unreferencedFileAge);
        }
    }

    public GcSettings withGrace(Duration newGrace) {
        return new GcSettings(newGrace, deletesPerSecond, pageSize, unreferencedFileAge);
    }
}
