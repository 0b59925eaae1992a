package dev.layerfold.storage.s3;

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
 * (their multipart uploads, tails and half-published bodies, then their state), then upload records
 * left in the bucket without a state (a crash between the two, or a Redis that lost its data).
 * Every registry process runs one; a lease lets one of them sweep the shared bucket at a time, and if
 * that process dies mid-sweep the lease expires and another takes over at its next turn.
 */
public final class S3UploadSweeper implements AutoCloseable {

    static final String LEASE = "s3-upload-sweep";
    private static final Duration LEASE_TIME_TO_LIVE = Duration.ofSeconds(30);
    private static final System.Logger LOG = System.getLogger(S3UploadSweeper.class.getName());

    private final S3BlobStore blobs;
    private final MetadataStore metadata;
    private final Leases leases;
    private final Duration maxIdle;
    private final Clock clock;
    private final ScheduledExecutorService schedule;

    public S3UploadSweeper(S3BlobStore blobs, MetadataStore metadata, Leases leases, Duration maxIdle, Clock clock) {
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
                .name("s3-upload-sweeper").factory());
    }

    /** Sweeps every {@code interval}, the first time after one interval. */
    public void start(Duration interval) {
        schedule.scheduleWithFixedDelay(this::sweepLogged, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** One sweep, unless another process is sweeping (empty); the ids of the uploads it removed. */
    public Optional<List<String>> sweep() throws IOException {
        Optional<Lease> lease = leases.tryAcquire(LEASE, LEASE_TIME_TO_LIVE);
        if (lease.isEmpty()) {
            return Optional.empty();
        }
        try (Lease held = lease.get()) {
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
            return Optional.of(removed);
        }
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
