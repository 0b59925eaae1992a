package dev.layerfold.gc;

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
 * @param packLiveShare        a pack is rewritten once the share of its bytes still live falls below this
 * @param packGrace            a rewritten pack is deleted this long after the switch: longer than a dedup
 *                             worker's proof or a restore that looked its files up before it may read them
 * @param rewriteBytesPerSecond pack bytes read for rewriting per second at most
 * @param sweepObjectsPerRun   objects of the bucket each run lists, from where the last stopped, looking
 *                             for what no index knows; 0 sweeps nothing
 */
public record GcSettings(Duration grace, double deletesPerSecond, int pageSize, Duration unreferencedFileAge,
                         double packLiveShare, Duration packGrace, double rewriteBytesPerSecond, long sweepObjectsPerRun) {

    public static final GcSettings DEFAULTS = new GcSettings(Duration.ofHours(24), 50, 500, Duration.ofHours(1),
            0.5, Duration.ofHours(1), 32 << 20, 10_000);

    public GcSettings {
        if (grace.isNegative() || deletesPerSecond <= 0 || pageSize <= 0 || unreferencedFileAge.isNegative()
                || packLiveShare < 0 || packLiveShare > 1 || packGrace.isNegative() || rewriteBytesPerSecond <= 0
                || sweepObjectsPerRun < 0) {
            throw new IllegalArgumentException("GC settings need a grace, file age and pack grace of zero or more, a pack "
                    + "live share from 0 to 1, positive deletes and bytes per second and page size, and a sweep of zero objects or more; got grace " + grace
                    + ", " + deletesPerSecond + " deletes/s, page " + pageSize + ", file age " + unreferencedFileAge
                    + ", live share " + packLiveShare + ", pack grace " + packGrace + ", " + rewriteBytesPerSecond + " bytes/s, sweep "
                    + sweepObjectsPerRun);
        }
    }

    public GcSettings withGrace(Duration newGrace) {
        return new GcSettings(newGrace, deletesPerSecond, pageSize, unreferencedFileAge, packLiveShare, packGrace,
                rewriteBytesPerSecond, sweepObjectsPerRun);
    }

    public GcSettings withPackGrace(Duration newPackGrace) {
        return new GcSettings(grace, deletesPerSecond, pageSize, unreferencedFileAge, packLiveShare, newPackGrace,
                rewriteBytesPerSecond, sweepObjectsPerRun);
    }
}
