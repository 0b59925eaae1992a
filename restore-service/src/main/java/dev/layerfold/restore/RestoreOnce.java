package dev.layerfold.restore;

import dev.layerfold.dedup.pipeline.LayerRehydrator;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.lease.Lease;
import dev.layerfold.storage.lease.Leases;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One rebuild of a deduplicated layer at a time across every process, through the parts the cluster
 * shares already: a lease per layer (in Redis) says who rebuilds it, and the rebuilt layer, once its
 * digest matched, is published back into the blob store as an intact copy, which is what every other
 * process waiting for it then serves. So concurrent pulls of a layer on N processes cost one rebuild
 * and one write of the layer to the bucket; the holder's own requests stream as the encoder runs
 * (they join the rebuild in this process), the others get their first byte when the copy is whole.
 * The copy stays while the layer is pulled; the dedup pipeline's {@code IntactCopySweeper} thins it
 * again once it is cold.
 *
 * <p>Without leases (the embedded backend: one process) there is nobody to wait for; the copy is
 * still kept, so a layer pulled again soon is served intact, unless copies are not to be kept.
 */
public final class RestoreOnce implements LayerRehydrator {

    private static final Logger LOG = LoggerFactory.getLogger(RestoreOnce.class);
    private static final Duration LEASE_TIME_TO_LIVE = Duration.ofSeconds(30);
    private static final long POLL_MILLIS = 100;

    private final BlobStore blobs;
    private final LayerRestorer restorer;
    private final Leases leases;
    private final ExecutorService copiers;
    private final Duration longestWait;
    private final boolean keepCopies;
    private final Counter copiesKept;
    private final Counter waits;
    private final BiConsumer<Digest, Long> copyKept;
    /** Layers this process rebuilds now; its other requests for them join that rebuild. */
    private final Set<Digest> rebuildingHere = ConcurrentHashMap.newKeySet();

    /**
     * @param leases      null on a backend one process uses alone
     * @param copiers     threads that write rebuilt layers back as intact copies (I/O bound)
     * @param longestWait how long a request waits for another process's rebuild before it rebuilds the
     *                    layer itself (that process may be stuck; the lease covers only its death)
     * @param keepCopies  whether rebuilt layers are kept as intact copies for later pulls; with leases
     *                    they are written anyway, for the processes waiting (and thinned a sweep later)
     */
    public RestoreOnce(BlobStore blobs, LayerRestorer restorer, Leases leases, ExecutorService copiers,
                       Duration longestWait, boolean keepCopies, MeterRegistry metrics) {
        this(blobs, restorer, leases, copiers, longestWait, keepCopies, metrics, (layer, size) -> {
        });
    }

    /**
     * @param copyKept told of each copy published (layer, size), e.g. for the intact-copy budget to
     *                 judge it; it may delete the copy again
     */
    public RestoreOnce(BlobStore blobs, LayerRestorer restorer, Leases leases, ExecutorService copiers,
                       Duration longestWait, boolean keepCopies, MeterRegistry metrics, BiConsumer<Digest, Long> copyKept) {
        this.copyKept = copyKept;
        this.blobs = blobs;
        this.restorer = restorer;
        this.leases = leases;
        this.copiers = copiers;
        this.longestWait = longestWait;
        this.keepCopies = keepCopies;
        this.copiesKept = Counter.builder("layerfold.restore.copies.kept")
                .description("rebuilt layers published back as intact copies, served until they are cold").register(metrics);
        this.waits = Counter.builder("layerfold.restore.waits")
                .description("pulls that waited for another process's rebuild of the layer instead of rebuilding it").register(metrics);
    }

    /** The layer's size, if it is deduplicated. */
    public Optional<Long> size(Digest layer) throws IOException {
        return restorer.size(layer);
    }

    /**
     * Bytes {@code offset} to {@code offset + length - 1} of the layer ({@code length < 0}: to the end),
     * rebuilt here or by another process; empty if the layer is neither deduplicated nor intact.
     */
    public Optional<InputStream> open(Digest layer, long offset, long length) throws IOException {
        if (offset > 0 && !rebuildingHere.contains(layer)) {
            // A resumed pull rebuilds from the restart point before it, here and now: cheaper than
            // waiting for (or making) a whole copy. Neither kept nor shared with other processes.
            Optional<InputStream> resumed = restorer.openFromRestartPoint(layer, offset, length);
            if (resumed.isPresent()) {
                return resumed;
            }
        }
        if (leases == null && !keepCopies) {
            return restorer.open(layer, offset, length); // nobody to wait for a copy, and none to keep
        }
        long deadline = System.nanoTime() + longestWait.toNanos();
        boolean waited = false;
        while (true) {
            Optional<Lease> lease = tryLease(layer);
            if (lease.isPresent()) {
                // The rebuild waited for may have just ended, with its copy published and its lease released.
                Optional<InputStream> copy = waited ? blobs.open(layer, offset, length) : Optional.empty();
                if (copy.isPresent()) {
                    release(layer, lease.get());
                    return copy;
                }
                return rebuildKeepingACopy(layer, offset, length, lease.get());
            }
            // Another request or process rebuilds it; its copy appears when it is whole.
            Optional<InputStream> copy = blobs.open(layer, offset, length);
            if (copy.isPresent()) {
                return copy;
            }
            if (rebuildingHere.contains(layer)) {
                return restorer.open(layer, offset, length); // joins the rebuild running in this process
            }
            if (!waited) {
                if (restorer.size(layer).isEmpty()) {
                    return Optional.empty(); // neither intact nor deduplicated: nothing to wait for
                }
                waits.increment();
                waited = true;
            }
            if (System.nanoTime() > deadline) {
                LOG.warn("layer {}: waited {} for another process's rebuild; rebuilding it here", layer, longestWait);
                return restorer.open(layer, offset, length);
            }
            pause();
        }
    }

    /** The right to rebuild the layer: no other request of this process, nor any other process, has it. */
    private Optional<Lease> tryLease(Digest layer) throws IOException {
        if (!rebuildingHere.add(layer)) {
            return Optional.empty();
        }
        Optional<Lease> lease = Optional.empty();
        try {
            lease = leases == null ? Optional.of(NoLease.INSTANCE) : leases.tryAcquire("restore:" + layer, LEASE_TIME_TO_LIVE);
            return lease;
        } finally {
            if (lease.isEmpty()) {
                rebuildingHere.remove(layer);
            }
        }
    }

    private void release(Digest layer, Lease lease) {
        lease.close();
        rebuildingHere.remove(layer);
    }

    /** Rebuilds the layer and publishes it as an intact copy, for a layer that should stay intact while it is hot. */
    @Override
    public void rehydrate(Digest layer) throws IOException {
        Optional<Lease> lease = tryLease(layer);
        if (lease.isEmpty()) {
            return; // being rebuilt elsewhere, and kept
        }
        try {
            Optional<InputStream> whole = restorer.open(layer, 0, -1);
            if (whole.isPresent()) {
                try (InputStream copy = whole.get()) {
                    keepCopy(layer, copy);
                }
            }
        } finally {
            release(layer, lease.get());
        }
    }

    private Optional<InputStream> rebuildKeepingACopy(Digest layer, long offset, long length, Lease lease) throws IOException {
        Optional<InputStream> whole;
        Optional<InputStream> requested;
        try {
            // Both readers join one rebuild: the copy's, opened first, starts it, and it cannot end
            // before the copy has read it all.
            whole = restorer.open(layer, 0, -1);
            requested = whole.isPresent() ? restorer.open(layer, offset, length) : Optional.empty();
        } catch (IOException | RuntimeException e) {
            release(layer, lease);
            throw e;
        }
        if (whole.isEmpty()) {
            release(layer, lease);
            return blobs.open(layer, offset, length); // thinned no more: intact again
        }
        try {
            copiers.execute(() -> {
                try (InputStream copy = whole.get()) {
                    keepCopy(layer, copy);
                } catch (IOException | RuntimeException e) {
                    LOG.warn("rebuilt layer {} was not kept as an intact copy: {}", layer, e.toString());
                } finally {
                    release(layer, lease);
                }
            });
        } catch (RejectedExecutionException shuttingDown) {
            whole.get().close();
            release(layer, lease);
        }
        return requested;
    }

    /** Publishes the rebuilt bytes under the layer's digest; they reach the end only once the digest matched. */
    private void keepCopy(Digest layer, InputStream whole) throws IOException {
        String upload = "restored-" + UUID.randomUUID();
        blobs.startUpload(upload);
        boolean published = false;
        try {
            blobs.append(upload, whole);
            long size = blobs.uploadSize(upload);
            blobs.publish(upload, layer);
            published = true;
            copiesKept.increment();
            copyKept.accept(layer, size);
        } finally {
            if (!published) {
                blobs.abortUpload(upload);
            }
        }
    }

    private static void pause() throws InterruptedIOException {
        try {
            Thread.sleep(POLL_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for another process's rebuild");
        }
    }

    /** The lease of a process alone on its backend: always its own. */
    private static final class NoLease implements Lease {
        static final NoLease INSTANCE = new NoLease();

        @Override
        public String name() {
            return "this process only";
        }

        @Override
        public boolean isHeld() {
            return true;
        }

        @Override
        public void close() {
        }
    }
}
