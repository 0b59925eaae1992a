package dev.layerfold.storage.redis;

import static dev.layerfold.storage.redis.RedisCalls.call;

import dev.layerfold.storage.lease.Lease;
import dev.layerfold.storage.lease.Leases;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Refills the Redis index from the bucket's records when Redis lost it (a new or flushed Redis, a
 * restart without persistence). A marker key says the index is complete; it is written only after a
 * full pass, so a rebuild that dies halfway is redone. One process rebuilds under a lease while the
 * others wait for the marker.
 *
 * <p>Each listed record is read back and indexed while holding its lock ({@link RecordLocks}), the one
 * every change of that record holds for its bucket write and index update. A record deleted after the
 * listing passed it is then either gone when read back, or deleted (from bucket and index) after it
 * was indexed: it never comes back into the index.
 */
final class IndexRebuild {

    /** Applies one record, read from the bucket, to the index. */
    @FunctionalInterface
    interface Indexer {
        void index(BucketRecords.Fact fact, Optional<String> body) throws IOException;
    }

    private static final String LEASE = "index-rebuild";
    private static final Duration LEASE_TIME_TO_LIVE = Duration.ofSeconds(30);
    private static final Duration LONGEST_WAIT = Duration.ofMinutes(30);
    private static final int RECORDS_IN_FLIGHT = 32;

    private final RedisClusterCommands<String, String> redis;
    private final IndexKeys keys;
    private final BucketRecords records;
    private final Leases leases;
    private final RecordLocks locks;
    private final Indexer indexer;

    IndexRebuild(RedisClusterCommands<String, String> redis, IndexKeys keys, BucketRecords records, Leases leases,
                 RecordLocks locks, Indexer indexer) {
        this.redis = redis;
        this.keys = keys;
        this.records = records;
        this.leases = leases;
        this.locks = locks;
        this.indexer = indexer;
    }

    /**
     * Rebuilds the index unless it is complete, waiting if another process is at it. Returns true if
     * the index was incomplete, so a lookup that found nothing should look again.
     */
    boolean ensureComplete() throws IOException {
        if (isComplete()) {
            return false;
        }
        try (Lease lease = leases.acquire(LEASE, LEASE_TIME_TO_LIVE, LONGEST_WAIT)) {
            if (!isComplete()) {
                rebuild(lease);
            }
        }
        return true;
    }

    private boolean isComplete() throws IOException {
        return call("check the index marker", () -> redis.exists(keys.indexComplete())) > 0;
    }

    /**
     * Indexes the records {@value #RECORDS_IN_FLIGHT} at a time: each costs a lease and a read, round
     * trips that would add up to hours one after another on a bucket of a million records.
     */
    private void rebuild(Lease lease) throws IOException {
        AtomicReference<IOException> failure = new AtomicReference<>();
        Semaphore inFlight = new Semaphore(RECORDS_IN_FLIGHT);
        try (ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor()) {
            for (S3Object object : records.all()) {
                if (failure.get() != null) {
                    break;
                }
                if (!lease.isHeld()) {
                    failure.compareAndSet(null, new IOException("lost the index-rebuild lease (Redis unreachable for "
                            + LEASE_TIME_TO_LIVE + "?); the next start or lookup rebuilds again"));
                    break;
                }
                Optional<BucketRecords.Fact> fact = BucketRecords.parse(object.key());
                if (fact.isPresent()) {
                    acquire(inFlight);
                    workers.execute(() -> {
                        try {
                            reindex(object.key(), fact.get());
                        } catch (IOException | RuntimeException e) {
                            failure.compareAndSet(null, e instanceof IOException io ? io
                                    : new IOException("cannot index record " + object.key() + ": " + e.getMessage(), e));
                        } finally {
                            inFlight.release();
                        }
                    });
                }
            }
        } catch (SdkException e) {
            failure.compareAndSet(null, new IOException("cannot list the metadata records in the bucket: " + e.getMessage(), e));
        }
        if (failure.get() != null) {
            throw failure.get();
        }
        call("mark the index complete", () -> redis.set(keys.indexComplete(), "1"));
    }

    private void reindex(String key, BucketRecords.Fact fact) throws IOException {
        locks.holding(key, () -> {
            indexer.index(fact, records.read(key));
            return null;
        });
    }

    private static void acquire(Semaphore permits) throws IOException {
        try {
            permits.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while rebuilding the index");
        }
    }
}
