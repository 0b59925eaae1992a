package dev.layerfold.storage.filesystem;

import dev.layerfold.storage.metadata.MetadataStore;
import dev.layerfold.storage.metadata.UploadState;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Periodically removes uploads nobody touched for {@code maxIdle}: first those the metadata knows
 * (bytes and state together), then upload files left without a state by a crash between the two.
 * Processes sharing one directory may each run one; sweeping twice only deletes what is already gone.
 */
public final class FilesystemUploadSweeper implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(FilesystemUploadSweeper.class.getName());

    private final FilesystemBlobStore blobs;
    private final MetadataStore metadata;
    private final Duration maxIdle;
    private final Clock clock;
    private final ScheduledExecutorService schedule;

    public FilesystemUploadSweeper(FilesystemBlobStore blobs, MetadataStore metadata, Duration maxIdle, Clock clock) {
        if (maxIdle.isNegative() || maxIdle.isZero()) {
            throw new IllegalArgumentException("the idle time after which uploads are swept must be positive, was "
                    + maxIdle);
        }
        this.blobs = blobs;
        this.metadata = metadata;
        this.maxIdle = maxIdle;
        this.clock = clock;
        this.schedule = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon()
                .name("filesystem-upload-sweeper").factory());
    }

    /** Sweeps every {@code interval}, the first time after one interval. */
    public void start(Duration interval) {
        schedule.scheduleWithFixedDelay(this::sweepLogged, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** One sweep; returns how many uploads it removed. */
    public int sweep() throws IOException {
        Instant cutoff = clock.instant().minus(maxIdle);
        int removed = 0;
        for (UploadState idle : metadata.uploadsIdleSince(cutoff)) {
            // Bytes first: a state without bytes reads as a lost upload, bytes without a state would leak.
            blobs.abortUpload(idle.id());
            if (metadata.deleteUpload(idle.id())) {
                removed++;
            }
        }
        List<String> orphans = blobs.abortUploadsIdleSince(cutoff);
        return removed + orphans.size();
    }

    private void sweepLogged() {
        try {
            int removed = sweep();
            if (removed > 0) {
                LOG.log(System.Logger.Level.INFO, "removed {0} uploads idle for more than {1}", removed, maxIdle);
            }
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "sweeping idle uploads failed; retrying at the next interval", e);
        }
    }

    @Override
    public void close() {
        schedule.shutdownNow();
    }
}
