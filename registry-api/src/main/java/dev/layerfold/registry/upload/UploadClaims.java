package dev.layerfold.registry.upload;

import dev.layerfold.storage.metadata.MetadataStore;
import dev.layerfold.storage.metadata.UploadState;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Makes one request at a time, across every registry process, the writer of an upload. On S3 whoever
 * appends saves the running hash beside the bytes, and two appends racing from one state could save
 * one's bytes and the other's hash, publishing bytes under a digest that is not theirs.
 *
 * <p>A claim is a token in the upload's metadata ({@link MetadataStore#claimUpload}), renewed in the
 * background at a third of its lifetime while its request runs. If the request's process dies the
 * claim lapses after its lifetime, so the client can resume the upload; a request that finds the
 * upload claimed waits up to one lifetime for that. Like any lease, this assumes that a process does
 * not stall longer than a lifetime between renewing its claim and writing, and that the processes'
 * clocks agree within a few seconds.
 */
final class UploadClaims {

    /** Long enough for a renewal to survive a slow metadata store, short enough to wait for after a crash. */
    static final Duration LIFETIME = Duration.ofSeconds(10);
    private static final long RETRY_MILLIS = 100;

    /** Renewals are one small metadata write each: one thread serves every claim of the process. */
    private static final ScheduledExecutorService RENEWALS = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "upload-claim-renewal");
        thread.setDaemon(true);
        return thread;
    });

    @FunctionalInterface
    interface CurrentState {
        UploadState read() throws IOException;
    }

    private final MetadataStore metadata;
    private final Duration lifetime;
    private final Clock clock;

    UploadClaims(MetadataStore metadata, Duration lifetime, Clock clock) {
        this.metadata = metadata;
        this.lifetime = lifetime;
        this.clock = clock;
    }

    /**
     * Claims the upload at the state {@code current} reads, waiting up to one lifetime while another
     * request holds it. Empty if it is still held then.
     */
    Optional<Claim> claim(CurrentState current) throws IOException {
        String token = UUID.randomUUID().toString();
        // A little over one lifetime, so that a claim which lapses just then is taken, not reported.
        Instant giveUp = clock.instant().plus(lifetime).plusMillis(2 * RETRY_MILLIS);
        while (true) {
            UploadState state = current.read();
            Instant now = clock.instant();
            if (metadata.claimUpload(state.id(), state.size(), token, now, now.minus(lifetime))) {
                return Optional.of(new Claim(state, token));
            }
            if (now.isAfter(giveUp)) {
                return Optional.empty();
            }
            try {
                Thread.sleep(RETRY_MILLIS); // polls a claim held elsewhere: nothing to be notified by
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for upload " + state.id());
            }
        }
    }

    /** A held claim; closing it stops the renewals and drops the claim if the upload did not advance. */
    final class Claim implements AutoCloseable {
        private final UploadState state;
        private final String token;
        private final ScheduledFuture<?> renewal;

        private Claim(UploadState state, String token) {
            this.state = state;
            this.token = token;
            long period = lifetime.toMillis() / 3;
            this.renewal = RENEWALS.scheduleAtFixedRate(this::renew, period, period, TimeUnit.MILLISECONDS);
        }

        /** The upload as it was when claimed. */
        UploadState state() {
            return state;
        }

        String token() {
            return token;
        }

        /** True if the claim is still this request's (renewing it): checked before an irrevocable step. */
        boolean stillHeld() throws IOException {
            return metadata.renewClaim(state.id(), token, clock.instant());
        }

        private void renew() {
            try {
                if (!stillHeld()) {
                    renewal.cancel(false); // advanced, released, deleted or taken over: nothing left to renew
                }
            } catch (IOException | RuntimeException e) {
                // The next renewal tries again; a claim that lapses meanwhile fails this request's advance.
            }
        }

        @Override
        public void close() throws IOException {
            renewal.cancel(false);
            metadata.releaseUpload(state.id(), token);
        }
    }
}
