package dev.layerfold.storage.s3;

import dev.layerfold.storage.lease.Lease;
import dev.layerfold.storage.lease.Leases;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Periodically aborts uploads nobody touched for {@code maxIdle}: their multipart uploads, tails and
 * half-published bodies. Every registry process runs one; a lease makes one of them sweep at a time,
 * and if that process dies mid-sweep the lease expires and another takes over at its next turn.
 */
public final class AbandonedUploadSweeper implements AutoCloseable {

    static final String LEASE = "s3-abandoned-upload-sweep";
    private static final Duration LEASE_TIME_TO_LIVE = Duration.ofSeconds(30);
    private static final System.Logger LOG = System.getLogger(AbandonedUploadSweeper.class.getName());

    private final S3BlobStore store;
    private final Leases leases;
    private final Duration maxIdle;
    private final Clock clock;
    private final ScheduledExecutorService schedule;

    public AbandonedUploadSweeper(S3BlobStore store, Leases leases, Duration maxIdle, Clock clock) {
        this.store = store;
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

    /** One sweep, if no other process is sweeping; the ids of the uploads it aborted. */
    public Optional<List<String>> sweep() throws IOException {
        Optional<Lease> lease = leases.tryAcquire(LEASE, LEASE_TIME_TO_LIVE);
        if (lease.isEmpty()) {
            return Optional.empty();
        }
        try (Lease held = lease.get()) {
            return Optional.of(store.abortUploadsIdleSince(clock.instant().minus(maxIdle)));
        }
    }

    private void sweepLogged() {
        try {
            sweep().filter(aborted -> !aborted.isEmpty()).ifPresent(aborted -> LOG.log(System.Logger.Level.INFO,
                    "aborted {0} uploads idle for more than {1}", aborted.size(), maxIdle));
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "sweeping abandoned uploads failed; retrying at the next interval", e);
        }
    }

    @Override
    public void close() {
        schedule.shutdownNow();
    }
}
