package dev.layerfold.registry.blob;

import dev.layerfold.registry.api.Route;
import dev.layerfold.registry.error.BrokenResponseException;
import dev.layerfold.registry.error.ErrorCode;
import dev.layerfold.registry.error.RegistryException;
import dev.layerfold.registry.gc.CollectorFence;
import dev.layerfold.registry.proxy.PulledLayers;
import dev.layerfold.registry.proxy.Upstream;
import dev.layerfold.registry.proxy.UpstreamException;
import dev.layerfold.registry.proxy.Upstreams;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.blob.BlobContent;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.lease.Lease;
import dev.layerfold.storage.lease.LeaseUnavailableException;
import dev.layerfold.storage.lease.Leases;
import dev.layerfold.storage.metadata.MetadataStore;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * Blobs of pulled-through repositories that are not here yet: fetched from the upstream once, however
 * many clients ask at the same time (in one process by a map of fetches in flight, across processes by
 * a lease where the metadata store offers leases), streamed to the first client while they are stored
 * through the ordinary upload port, then linked into the repository like a pushed blob.
 */
@Component
public class BlobPullThrough {

    private static final Logger LOG = LoggerFactory.getLogger(BlobPullThrough.class);
    /** Renewed while held; lapses this long after its holder died. */
    private static final Duration LEASE_LIFETIME = Duration.ofSeconds(30);
    /** How long a process waits for another one's fetch of the same blob before fetching it as well. */
    private static final Duration LEASE_WAIT = Duration.ofMinutes(10);
    /** How often a request following another one's fetch looks for more bytes in the upload. */
    private static final long FOLLOW_POLL_MILLIS = 20;
    private static final int FOLLOW_BUFFER = 64 * 1024;

    private final Upstreams upstreams;
    private final BlobStore blobs;
    private final BlobContent content;
    private final MetadataStore metadata;
    private final CollectorFence fence;
    private final PulledLayers pulledLayers;
    private final ObjectProvider<Leases> leases;
    private final ConcurrentMap<Digest, Fetch> inFlight = new ConcurrentHashMap<>();

    BlobPullThrough(Upstreams upstreams, BlobStore blobs, BlobContent content, MetadataStore metadata,
                    CollectorFence fence, PulledLayers pulledLayers, ObjectProvider<Leases> leases) {
        this.upstreams = upstreams;
        this.blobs = blobs;
        this.content = content;
        this.metadata = metadata;
        this.fence = fence;
        this.pulledLayers = pulledLayers;
        this.leases = leases;
    }

    /** The upstream the repository is cached from, if any. */
    Optional<Upstreams.Target> upstreamOf(RepositoryName repository) {
        return upstreams.any() ? upstreams.route(repository) : Optional.empty();
    }

    /**
     * For a blob the repository does not hold: answers a HEAD from the upstream's, or fetches and streams
     * the blob for a GET (true: the response is written), or, when its bytes are here already (another
     * repository's, another process's fetch), links them once the upstream confirmed the repository has
     * the blob (false: serve it as a held blob). Never links bytes the upstream did not vouch for, so a
     * digest alone opens no other repository's blob.
     */
    boolean serve(Upstreams.Target target, Route.Blob route, boolean head, HttpServletResponse response) throws IOException {
        for (int attempt = 0; ; attempt++) {
            if (content.size(route.digest()).isPresent()) {
                linkIfUpstreamHas(target, route);
                return false;
            }
            if (head) {
                answerHead(target, route, response);
                return true;
            }
            Fetch mine = new Fetch();
            Fetch running = inFlight.putIfAbsent(route.digest(), mine);
            if (running == null) {
                try {
                    return fetch(target, route, response, mine);
                } finally {
                    inFlight.remove(route.digest(), mine);
                    mine.finish(false);
                }
            }
            if (blobs.canReadUploads() && follow(target, route, running, response)) {
                return true;
            }
            running.await();
            if (attempt > 0) {
                // Another request's fetch failed twice: this one would most likely fail the same way.
                throw RegistryException.of(ErrorCode.UNAVAILABLE, "blob " + route.digest() + " could not be fetched from "
                        + "upstream " + target.upstream().name() + " by another request; retry", Map.of("digest", route.digest().toString()));
            }
        }
    }

    /**
     * This process's fetch of one blob, which other requests for it follow: the upload it fills, once
     * started, and whether it ended published.
     */
    private static final class Fetch {
        private final CountDownLatch started = new CountDownLatch(1);
        private final CompletableFuture<Boolean> outcome = new CompletableFuture<>();
        private volatile String uploadId;
        private volatile long length = -1;

        void started(String uploadId, long length) {
            this.uploadId = uploadId;
            this.length = length;
            started.countDown();
        }

        void finish(boolean published) {
            started.countDown();
            outcome.complete(published);
        }

        boolean awaitStarted() throws InterruptedIOException {
            try {
                started.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted waiting for another request's fetch of the blob");
            }
            return uploadId != null;
        }

        boolean await() throws InterruptedIOException {
            try {
                return outcome.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted waiting for another request's fetch of the blob");
            } catch (ExecutionException e) {
                return false; // never completed exceptionally
            }
        }
    }

    /**
     * Streams the blob to a request that came while another one fetches it, from the upload as it grows
     * (on stores that can read an upload back), so this client does not wait for the whole blob either.
     * Like the fetching request, it holds back the last byte until the fetch was verified and published,
     * so a fetch that fails leaves this client, too, with a download cut short. False if there is nothing
     * to follow (the fetch has not started an upload, or does not know the length): then wait for it.
     */
    private boolean follow(Upstreams.Target target, Route.Blob route, Fetch running, HttpServletResponse response)
            throws IOException {
        if (!running.awaitStarted() || running.length <= 0) {
            return false;
        }
        Digest digest = route.digest();
        long length = running.length;
        confirmAtUpstream(target, route);
        response.setStatus(HttpStatus.OK.value());
        response.setHeader("Docker-Content-Digest", digest.toString());
        response.setHeader("ETag", "\"" + digest + "\"");
        response.setContentType("application/octet-stream");
        response.setContentLengthLong(length);
        var out = response.getOutputStream();
        byte[] buffer = new byte[(int) Math.min(length, FOLLOW_BUFFER)];
        long sent = 0;
        while (sent < length - 1 && !running.outcome.isDone()) {
            long copied = 0;
            try (var in = blobs.openUpload(running.uploadId, sent)) {
                for (int n; sent + copied < length - 1
                        && (n = in.read(buffer, 0, (int) Math.min(buffer.length, length - 1 - sent - copied))) > 0; ) {
                    out.write(buffer, 0, n);
                    copied += n;
                }
            } catch (java.nio.file.NoSuchFileException | dev.layerfold.storage.blob.UploadNotFoundException gone) {
                // published (renamed) or aborted: the outcome says which
                running.await();
            }
            sent += copied;
            if (copied == 0 && !running.outcome.isDone()) {
                sleep(FOLLOW_POLL_MILLIS);
            }
        }
        if (!running.await()) {
            if (sent == 0 && !response.isCommitted()) {
                response.reset();
                throw RegistryException.of(ErrorCode.UNAVAILABLE, "blob " + digest + " could not be fetched from upstream "
                        + target.upstream().name() + "; retry", Map.of("digest", digest.toString()));
            }
            throw new BrokenResponseException("the fetch of " + digest + " this request followed failed", null);
        }
        try (var rest = blobs.open(digest, sent, -1).orElseThrow(() -> new BrokenResponseException(
                "blob " + digest + " vanished right after its fetch", null))) {
            for (int n; (n = rest.read(buffer)) > 0; ) {
                out.write(buffer, 0, n);
            }
        }
        fence.touchBeforePublishing(route.name(), digest);
        metadata.linkBlob(route.name(), digest);
        return true;
    }

    private static void sleep(long millis) throws InterruptedIOException {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted following another request's fetch of the blob");
        }
    }

    private void linkIfUpstreamHas(Upstreams.Target target, Route.Blob route) throws IOException {
        confirmAtUpstream(target, route);
        fence.touchBeforePublishing(route.name(), route.digest());
        metadata.linkBlob(route.name(), route.digest());
    }

    /** Asks the upstream whether the repository has the blob: a digest alone must not open bytes pulled for another. */
    private void confirmAtUpstream(Upstreams.Target target, Route.Blob route) throws IOException {
        try (Upstream.Response answer = target.upstream().send("HEAD", target.repository(), "blobs/" + route.digest(),
                "blob", List.of())) {
            if (answer.status() == 404) {
                throw unknown(target, route);
            }
        } catch (UpstreamException e) {
            throw e.toRegistryError("blob " + route.digest() + " of " + route.name());
        }
    }

    private void answerHead(Upstreams.Target target, Route.Blob route, HttpServletResponse response) throws IOException {
        try (Upstream.Response answer = target.upstream().send("HEAD", target.repository(), "blobs/" + route.digest(),
                "blob", List.of())) {
            if (answer.status() == 404) {
                throw unknown(target, route);
            }
            response.setStatus(HttpStatus.OK.value());
            response.setHeader("Docker-Content-Digest", route.digest().toString());
            response.setContentType("application/octet-stream");
            if (answer.contentLength() >= 0) {
                response.setContentLengthLong(answer.contentLength());
            }
        } catch (UpstreamException e) {
            throw e.toRegistryError("blob " + route.digest() + " of " + route.name());
        }
    }

    /** Fetches the blob, this process's only fetch of it; across processes, the lease holder's only. */
    private boolean fetch(Upstreams.Target target, Route.Blob route, HttpServletResponse response, Fetch fetch) throws IOException {
        try (Lease lease = lease(route.digest())) {
            if (lease != null && content.size(route.digest()).isPresent()) {
                // Another process fetched it while this one waited for the lease.
                linkIfUpstreamHas(target, route);
                return false;
            }
            return stream(target, route, response, fetch);
        }
    }

    private Lease lease(Digest digest) throws IOException {
        Leases shared = leases.getIfAvailable();
        if (shared == null) {
            return null;
        }
        try {
            return shared.acquire("pull-through/" + digest, LEASE_LIFETIME, LEASE_WAIT);
        } catch (LeaseUnavailableException e) {
            LOG.warn("another process has been fetching {} for over {}; fetching it here too", digest, LEASE_WAIT);
            return null;
        }
    }

    private boolean stream(Upstreams.Target target, Route.Blob route, HttpServletResponse response, Fetch fetch)
            throws IOException {
        Upstream upstream = target.upstream();
        Digest digest = route.digest();
        Upstream.Response answer;
        try {
            answer = upstream.send("GET", target.repository(), "blobs/" + digest, "blob", List.of());
        } catch (UpstreamException e) {
            throw e.toRegistryError("blob " + digest + " of " + route.name());
        }
        try (answer) {
            if (answer.status() == 404) {
                throw unknown(target, route);
            }
            long length = answer.contentLength();
            response.setStatus(HttpStatus.OK.value());
            response.setHeader("Docker-Content-Digest", digest.toString());
            response.setHeader("ETag", "\"" + digest + "\"");
            response.setContentType("application/octet-stream");
            if (length >= 0) {
                response.setContentLengthLong(length);
            }
            try {
                receive(upstream, answer, route.name(), digest, length, response.getOutputStream(), fetch);
                return true;
            } catch (IOException | RuntimeException e) {
                LOG.warn("pull-through of {} for {} failed: {}", digest, route.name(), e.toString());
                if (e instanceof UpstreamException failed && !response.isCommitted()) {
                    response.reset();
                    throw failed.toRegistryError("blob " + digest + " of " + route.name());
                }
                if (response.isCommitted()) {
                    throw new BrokenResponseException("pull-through of " + digest + " failed after its first bytes were sent", e);
                }
                throw e;
            }
        }
    }

    /**
     * Reads the upstream's body into an upload, hashed on the way and copied to {@code client}, then,
     * once verified, publishes it and links it into the repository. On a failure nothing is kept and
     * the upstream connection is dropped.
     */
    private void receive(Upstream upstream, Upstream.Response answer, RepositoryName repository, Digest digest,
                         long length, OutputStream client, Fetch fetch) throws IOException {
        String uploadId = "pull-through-" + UUID.randomUUID();
        blobs.startUpload(uploadId);
        fetch.started(uploadId, length);
        boolean published = false;
        try {
            VerifyingTee tee = new VerifyingTee(answer.body(), upstream, digest, length, client);
            blobs.append(uploadId, tee);
            if (!tee.verified()) {
                throw upstream.failure(UpstreamException.Reason.TRUNCATED, "the body of " + digest + " was not read to its end");
            }
            // Verified: the client may have its last byte now, without waiting for the publish's fsync.
            tee.release();
            fence.touchBeforePublishing(repository, digest);
            blobs.publish(uploadId, digest);
            published = true;
            metadata.linkBlob(repository, digest);
            pulledLayers.arrived(digest);
            fetch.finish(true);
        } catch (IOException | RuntimeException e) {
            answer.abort();
            if (!published) {
                blobs.abortUpload(uploadId);
            }
            throw e;
        }
    }

    /**
     * For scheduled mirroring: makes the blob part of the repository, fetching it from the upstream
     * as a client's pull would (one fetch per blob in this process, the same lease across processes,
     * the same verify-then-store path), with nobody to stream it to.
     *
     * @return the bytes fetched from the upstream: 0 if the blob was here already
     */
    public long mirror(Upstreams.Target target, RepositoryName repository, Digest digest) throws IOException {
        if (metadata.hasBlob(repository, digest) && content.size(digest).isPresent()) {
            return 0;
        }
        Route.Blob route = new Route.Blob(repository, digest);
        for (int attempt = 0; ; attempt++) {
            if (content.size(digest).isPresent()) {
                linkIfUpstreamHas(target, route);
                return 0;
            }
            Fetch mine = new Fetch();
            Fetch running = inFlight.putIfAbsent(digest, mine);
            if (running == null) {
                try (Lease lease = lease(digest)) {
                    if (lease != null && content.size(digest).isPresent()) {
                        linkIfUpstreamHas(target, route);
                        return 0;
                    }
                    return fetchUnattended(target, repository, digest, mine);
                } finally {
                    inFlight.remove(digest, mine);
                    mine.finish(false);
                }
            }
            if (!running.await() && attempt > 0) {
                throw RegistryException.of(ErrorCode.UNAVAILABLE, "blob " + digest + " could not be fetched from upstream "
                        + target.upstream().name() + " by another request", Map.of("digest", digest.toString()));
            }
        }
    }

    private long fetchUnattended(Upstreams.Target target, RepositoryName repository, Digest digest, Fetch fetch)
            throws IOException {
        Upstream upstream = target.upstream();
        try (Upstream.Response answer = upstream.send("GET", target.repository(), "blobs/" + digest, "blob", List.of())) {
            if (answer.status() == 404) {
                throw unknown(target, new Route.Blob(repository, digest));
            }
            long[] received = new long[1];
            OutputStream counting = new OutputStream() {
                @Override
                public void write(int b) {
                    received[0]++;
                }

                @Override
                public void write(byte[] bytes, int offset, int length) {
                    received[0] += length;
                }
            };
            receive(upstream, answer, repository, digest, answer.contentLength(), counting, fetch);
            return received[0];
        }
    }

    private static RegistryException unknown(Upstreams.Target target, Route.Blob route) {
        return RegistryException.of(ErrorCode.BLOB_UNKNOWN, "blob " + route.digest() + " is neither in repository "
                + route.name() + " nor in " + target.repository() + " at upstream " + target.upstream().name(),
                Map.of("digest", route.digest().toString()));
    }
}
