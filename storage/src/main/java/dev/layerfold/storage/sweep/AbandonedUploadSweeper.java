package dev.layerfold.storage.sweep;

import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.lease.Lease;
import dev.layerfold.storage.lease.Leases;
import dev.layerfold.storage.metadata.MetadataStore;
import dev.layerfold.storage.metadata.UploadState;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Periodically removes uploads nobody touched for {@code maxIdle}: first those the metadata knows
 * (bytes, then state), then upload bytes left without a state (a crash between the two, or a metadata
 * store that lost its data).
 *
 * <p>Every registry process runs one. Given {@link Leases}, processes sharing a backend sweep one at a
 * time, and if the sweeping process dies its lease expires and another takes over at its next turn;
 * without, each sweeps on its own, which is safe because sweeping twice only removes what is gone.
 */
public final class AbandonedUploadSweeper implements AutoCloseable {

    public static final String LEASE = "abandoned-upload-sweep";
    private static final Duration LEASE_TIME_TO_LIVE = Duration.ofSeconds(30);
    private static final System.Logger LOG = System.getLogger(AbandonedUploadSweeper.class.getName());

    private final BlobStore blobs;
    private final MetadataStore metadata;
    private final Optional<Leases> leases;
    private final Duration maxIdle;
    private final Clock clock;
    private final ScheduledExecutorService schedule;

    /** A sweeper for a backend only this host uses, such as a local directory. */
    public AbandonedUploadSweeper(BlobStore blobs, MetadataStore metadata, Duration maxIdle, Clock clock) {
        this(blobs, metadata, Optional.empty(), maxIdle, clock);
    }

    /** A sweeper that takes turns through {@code leases} with the other processes of a shared backend. */
    public AbandonedUploadSweeper(BlobStore blobs, MetadataStore metadata, Leases leases, Duration maxIdle, Clock clock) {
        this(blobs, metadata, Optional.of(leases), maxIdle, clock);
    }

    private AbandonedUploadSweeper(BlobStore blobs, MetadataStore metadata, Optional<Leases> leases, Duration maxIdle,
                                   Clock clock) {
        if (maxIdle.isNegative() || maxIdle.isZero()) {
            throw new IllegalArgumentException("the idle time after which uploads are swept must be positive, was "
                    + maxIdle);
        }
        this.blobs = blobs;
        this.metadata = metadata;
        this.leases = leases;
        this.maxIdle = maxIdle;
        this.clock = clock;
        this.schedule = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon()
                .name("abandoned-upload-sweeper").factory());
    }

    /** Sweeps every {@code interval}, the first time after one interval. */
    public void start(Duration interval) {
        schedule.scheduleWithFixedDelay(this::sweepLogged, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** One sweep, unless another process holds the lease (empty); the ids of the uploads it removed. */
    public Optional<List<String>> sweep() throws IOException {
        if (leases.isEmpty()) {
            return Optional.of(sweepNow());
        }
        Optional<Lease> lease = leases.get().tryAcquire(LEASE, LEASE_TIME_TO_LIVE);
        if (lease.isEmpty()) {
            return Optional.empty();
        }
        try (Lease held = lease.get()) {
            return Optional.of(sweepNow());
        }
    }

    private List<String> sweepNow() throws IOException {
        Instant cutoff = clock.instant().minus(maxIdle);
        List<String> removed = new ArrayList<>();
        for (UploadState idle : metadata.uploadsIdleSince(cutoff)) {
            // Bytes first: a state without bytes reads as a lost upload, bytes without a state would leak.
            blobs.abortUpload(idle.id());
            if (metadata.deleteUpload(idle.id())) {
                removed.add(idle.id());
            }
        }
        removed.addAll(blobs.abortUploadsIdleSince(cutoff));
        return removed;
    }

    private void sweepLogged() {
        try {
            sweep().filter(removed -> !removed.isEmpty()).ifPresent(removed -> LOG.log(System.Logger.Level.INFO,
                    "removed {0} uploads idle for more than {1}", removed.size(), maxIdle));
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "sweeping idle uploads failed; retrying at the next interval", e);
        }
    }

    @Override
    public void close() {
        schedule.shutdownNow();
    }
}
