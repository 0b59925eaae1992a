package dev.layerfold.storage.redis;

import static dev.layerfold.storage.redis.RedisCalls.call;

import dev.layerfold.storage.lease.Lease;
import dev.layerfold.storage.lease.Leases;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Rebuilds the dedup index from the layer records in the bucket ({@link DedupLayerRecords}) when
 * Redis may have lost part of it: its marker ({@link DedupKeys#complete()}) is missing (a new,
 * flushed or non-persistent Redis) or names other servers than those now answering (a restart from
 * older persistence, a failover to a replica that lagged; see {@link ServerFingerprint}). The same
 * condition as the metadata index's ({@link IndexRebuild}), with its own marker and lease, because
 * this index is rebuilt from other records and through a seam of the dedup pipeline.
 *
 * <p>The pass wipes the index and its marker first, then applies every layer record, then sets the
 * marker. Unlike the metadata index it needs no per-record locks: every script of the index checks
 * the marker atomically and, finding it absent, makes its caller wait for the pass and run the
 * script again ({@link RedisDedupIndex}). So no change reaches the index during the pass; a change
 * whose bucket write the listing missed is applied by its caller's retry after it, and one whose
 * bucket write it saw is applied once (every script is idempotent per layer).
 *
 * <p>What a pass does not bring back: files stored in packs for layers not yet committed (their
 * workers' commits fail and store them again; the first copies stay in their packs as garbage until
 * a pack rewrite), claims (they last minutes) and the queue ({@link RedisDedupQueue}).
 */
final class DedupIndexRebuild {

    /** Applies one layer record read back from the bucket to the index. */
    @FunctionalInterface
    interface Restorer {
        void restore(String recordKey) throws IOException;
    }

    private static final System.Logger LOG = System.getLogger(DedupIndexRebuild.class.getName());
    private static final String LEASE = "dedup-index-rebuild";
    private static final Duration LEASE_TIME_TO_LIVE = Duration.ofSeconds(30);
    private static final Duration LONGEST_WAIT = Duration.ofMinutes(30);
    /** Each record costs two bucket reads (its state, then its record blob's file list) and two scripts. */
    private static final int RECORDS_IN_FLIGHT = 32;

    private static final RedisScript WIPE = new RedisScript("""
            for i = 1, #KEYS do
              redis.call('unlink', KEYS[i])
            end
            return 1""");

    private final RedisClusterCommands<String, String> redis;
    private final DedupKeys keys;
    private final DedupLayerRecords records;
    private final Leases leases;
    private final ServerFingerprint servers;
    private final Restorer restorer;
    private final AtomicBoolean inBackground = new AtomicBoolean();

    DedupIndexRebuild(RedisClusterCommands<String, String> redis, DedupKeys keys, DedupLayerRecords records,
                      Leases leases, ServerFingerprint servers, Restorer restorer) {
        this.redis = redis;
        this.keys = keys;
        this.records = records;
        this.leases = leases;
        this.servers = servers;
        this.restorer = restorer;
    }

    /** The fingerprint the marker must hold for the index to be complete. */
    String fingerprint() throws IOException {
        return servers.current();
    }

    /** Runs {@link #ensureComplete()} on a thread of its own, unless this process has one at it already. */
    void startInBackground() {
        if (inBackground.compareAndSet(false, true)) {
            Thread.ofVirtual().name("dedup-index-rebuild").start(() -> {
                try {
                    ensureComplete();
                } catch (IOException | RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "rebuilding the dedup index failed; the next call of the "
                            + "index tries again", e);
                } finally {
                    inBackground.set(false);
                }
            });
        }
    }

    /** Rebuilds the index unless it is complete on the current servers, waiting if another process is at it. */
    void ensureComplete() throws IOException {
        if (fingerprint().equals(marker())) {
            return;
        }
        try (Lease lease = leases.acquire(LEASE, LEASE_TIME_TO_LIVE, LONGEST_WAIT)) {
            // Taken before the pass: if Redis restarts during it, the marker names the servers before.
            String fingerprint = fingerprint();
            if (fingerprint.equals(marker())) {
                return;
            }
            call("clear the dedup index for a rebuild", () -> WIPE.run(redis, ScriptOutputType.INTEGER,
                    new String[] {keys.complete(), keys.files(), keys.packs(), keys.references(), keys.layers(), keys.totals(),
                            keys.intact(), keys.packDead(), keys.packGeneration(), keys.retiredPacks(), keys.condemnedPacks(), keys.unreferenced()}));
            pass(lease);
            call("mark the dedup index complete", () -> redis.set(keys.complete(), fingerprint));
        }
    }

    private String marker() throws IOException {
        return call("read the dedup index marker", () -> redis.get(keys.complete()));
    }

    /** Applies every layer record, {@value #RECORDS_IN_FLIGHT} at a time (each is a few round trips). */
    private void pass(Lease lease) throws IOException {
        AtomicReference<IOException> failure = new AtomicReference<>();
        Semaphore inFlight = new Semaphore(RECORDS_IN_FLIGHT);
        try (ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor()) {
            for (S3Object object : records.all()) {
                if (failure.get() != null) {
                    break;
                }
                if (!lease.isHeld()) {
                    failure.compareAndSet(null, new IOException("lost the dedup-index-rebuild lease (Redis unreachable for "
                            + LEASE_TIME_TO_LIVE + "?); the next call of the index starts over"));
                    break;
                }
                inFlight.acquire();
                workers.execute(() -> {
                    try {
                        restorer.restore(object.key());
                    } catch (IOException | RuntimeException e) {
                        failure.compareAndSet(null, e instanceof IOException io ? io
                                : new IOException("cannot restore dedup layer record " + object.key() + ": " + e.getMessage(), e));
                    } finally {
                        inFlight.release();
                    }
                });
            }
        } catch (SdkException e) {
            failure.compareAndSet(null, new IOException("cannot list the dedup layer records in the bucket: "
                    + e.getMessage(), e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure.compareAndSet(null, new InterruptedIOException("interrupted while rebuilding the dedup index"));
        }
        if (failure.get() != null) {
            throw failure.get();
        }
    }
}
