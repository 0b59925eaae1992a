package dev.layerfold.server;

import java.nio.file.Path;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * {@code layerfold.dedup.*}: whether and how pushed layers are deduplicated. Every property also
 * comes from the environment, e.g. {@code LAYERFOLD_DEDUP_MODE}.
 *
 * @param mode      {@code all}: every layer the codec reproduces is stored as unique files plus a
 *                  recipe; {@code selective}: the same, but a hot layer (pulled at least
 *                  {@code hotPulls} times a day, decayed) keeps its intact blob beside its recipe, and
 *                  loses it once cold; {@code budgeted}: the same as {@code all}, and the layers pulled
 *                  most (a W-TinyLFU policy over every pull) keep an intact copy within the intact-copy
 *                  budget, filled ahead with popular layers while the registry is idle; {@code off}:
 *                  nothing is queued or deduplicated (layers deduplicated earlier are still restored)
 * @param workers   dedup worker threads in this process; 0 runs none here (another process's workers
 *                  take the queue), so a process can serve the API only
 * @param scratch   local directory where a worker spools a layer's new files ({@code dedup/}) and
 *                  layers being restored are spooled for their readers ({@code restore/}); default:
 *                  {@code <storage path>/scratch}
 * @param zstdLevel compression level of stored files
 * @param packSize  target size of a pack of unique files
 * @param yieldAt   workers start no new layer, and pause the one under way between pieces, while this
 *                  many registry requests are in flight (0: one per core)
 * @param yieldQuiet how long after the last registry request ended work still counts the registry as
 *                  busy: the gaps between one client's requests (a push's blob after blob) do not let
 *                  a layer's dedup resume in between
 * @param yieldMaxPause the longest one pause of a layer under way lasts; after it, one more piece is
 *                  done, so a registry never idle still drains its backlog (slowly)
 * @param lease     how long a worker holds a layer without renewing it: a layer whose worker died is
 *                  taken over after this long
 * @param claimTime how long a worker's claim on a file it is about to store lasts: files a dead worker
 *                  claimed are stored by another after this long. Longer than storing one layer's
 *                  new files takes, or two workers may store a file twice (harmless, but wasted)
 * @param hotPulls  pulls per day (decayed, half-life one day) from which a layer is hot: in
 *                  {@code selective} mode it stays intact, in every mode its dedup waits for colder ones
 * @param hotDeferral how long a layer hot when first taken from the dedup queue is put back for, so
 *                  colder layers are deduplicated first (once per layer)
 * @param keepRestored how long a rebuilt layer, published back as an intact copy, stays after its last
 *                  pull, so a layer pulled by many nodes at once is rebuilt once (not in {@code budgeted}
 *                  mode, where the budget decides)
 * @param intactBudget mode {@code budgeted}: the bytes intact copies of deduplicated layers may take;
 *                  0: {@code intactShare} of the bytes deduplication saves
 * @param intactShare mode {@code budgeted}, without {@code intactBudget}: the share of the bytes saved
 *                  by deduplication that copies may take back, so the registry always stores less than
 *                  without dedup
 * @param sweepInterval how often intact copies are thinned or rehydrated by their pulls (one process
 *                  at a time)
 * @param restoreWait how long a pull waits for another process's rebuild of the layer before it
 *                  rebuilds it itself
 * @param restoreThreads threads that run restores' encoders, shared by every restore in the process:
 *                  a layer with restart points is encoded on several of them at once; 0: one per core
 * @param restoreMemory heap that layer rebuilds (client restores, rebuilds ahead, rehydrations, the
 *                  dedup proof) may hold at once; each reserves its bound before it starts, and waits
 *                  its turn while the budget is spent. Default (0): three eighths of the heap, which holds
 *                  a gzip restore on restart points beside one without at 256 MiB
 * @param restoreQueueWait how long a restore waits for memory before the pull is answered 429 with
 *                  {@code Retry-After} (the client keeps its connection while it waits)
 */
@ConfigurationProperties("layerfold.dedup")
public record DedupProperties(
        @DefaultValue("all") Mode mode,
        @DefaultValue("1") int workers,
        Path scratch,
        @DefaultValue("3") int zstdLevel,
        @DefaultValue("64MB") DataSize packSize,
        @DefaultValue("1") int yieldAt,
        @DefaultValue("100ms") Duration yieldQuiet,
        @DefaultValue("30s") Duration yieldMaxPause,
        @DefaultValue("2m") Duration lease,
        @DefaultValue("15m") Duration claimTime,
        @DefaultValue("10") double hotPulls,
        @DefaultValue("10m") Duration hotDeferral,
        @DefaultValue("15m") Duration keepRestored,
        @DefaultValue("0") DataSize intactBudget,
        @DefaultValue("0.25") double intactShare,
        @DefaultValue("1m") Duration sweepInterval,
        @DefaultValue("2m") Duration restoreWait,
        @DefaultValue("0") int restoreThreads,
        @DefaultValue("0") DataSize restoreMemory,
        @DefaultValue("5m") Duration restoreQueueWait) {

    public enum Mode { OFF, ALL, SELECTIVE, BUDGETED }

    public DedupProperties {
        if (restoreMemory.toBytes() < 0 || restoreMemory.toBytes() > 0 && restoreMemory.toBytes() < 1 << 20) {
            throw new IllegalArgumentException("layerfold.dedup.restore-memory must be at least 1MB (or 0 for three eighths of the heap), was "
                    + restoreMemory);
        }
        if (intactBudget.toBytes() < 0 || intactShare < 0 || intactShare > 1) {
            throw new IllegalArgumentException("layerfold.dedup.intact-budget must not be negative and intact-share must be within 0-1, were "
                    + intactBudget + " and " + intactShare);
        }
        if (yieldQuiet.isNegative() || yieldMaxPause.isNegative()) {
            throw new IllegalArgumentException("layerfold.dedup.yield-quiet and yield-max-pause must not be negative");
        }
        if (restoreQueueWait.isNegative()) {
            throw new IllegalArgumentException("layerfold.dedup.restore-queue-wait must not be negative, was " + restoreQueueWait);
        }
    }

    int restoreThreadCount() {
        return restoreThreads > 0 ? restoreThreads : Runtime.getRuntime().availableProcessors();
    }

    long restoreMemoryBytes() {
        return restoreMemory.toBytes() > 0 ? restoreMemory.toBytes() : Runtime.getRuntime().maxMemory() * 3 / 8;
    }

    int yieldThreshold() {
        return yieldAt > 0 ? yieldAt : Runtime.getRuntime().availableProcessors();
    }
}
