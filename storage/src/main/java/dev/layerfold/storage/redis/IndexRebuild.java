package dev.layerfold.storage.redis;

import static dev.layerfold.storage.redis.RedisCalls.call;

import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.lease.Lease;
import dev.layerfold.storage.lease.Leases;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.event.Event;
import io.lettuce.core.event.connection.ConnectionActivatedEvent;
import io.lettuce.core.event.connection.DisconnectedEvent;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Brings the Redis index back in line with the bucket's records when Redis may have lost part of it.
 * A marker key holds the fingerprint of the Redis servers the index was complete on
 * ({@link ServerFingerprint}); it is written only after a full pass, so a pass that dies halfway is
 * redone. One process makes the pass under a lease while the others wait for the marker.
 * <ul>
 * <li>No marker (a new, flushed or non-persistent Redis): <b>rebuild</b>, indexing every record.
 * <li>A marker of other servers (Redis restarted, perhaps from persistence older than its last
 *     writes, or a replica that lagged took over a master): <b>reconcile</b>, the same pass, plus the
 *     removal of every index entry whose record is no longer in the bucket (deleted after the
 *     persisted state). A restart that lost nothing costs one pass that changes nothing.
 * </ul>
 *
 * <p>Each record is read back and applied to the index while holding its lock ({@link RecordLocks}),
 * the one every change of that record holds for its bucket write and index update: a record present
 * is indexed, a record absent is removed from the index. A record deleted after the listing passed
 * it is then either gone when read back, or deleted (from bucket and index) after it was indexed: it
 * never comes back into the index; an entry written after the listing passed is found in the bucket
 * when read back, and stays.
 *
 * <p>Lookups that find nothing wait for the pass, as they would for a missing marker: the entry may
 * be one Redis lost. Lookups that find something do not, so pulls go on at full speed during a
 * reconcile (a pass reads every record, minutes on a large bucket); the price is that an entry
 * deleted after the persisted state is still served until the pass removes it, as it was before
 * its delete. The fingerprint is checked in the background every {@link #CHECK_PERIOD} and when a
 * connection comes back up, so a reconcile starts without waiting for a lookup to miss.
 */
final class IndexRebuild implements AutoCloseable {

    /**
     * Brings the index in line with one record read from the bucket: adds or updates its entry if the
     * record is present, removes it if absent.
     */
    @FunctionalInterface
    interface Indexer {
        void index(BucketRecords.Fact fact, Optional<String> body) throws IOException;
    }

    private static final System.Logger LOG = System.getLogger(IndexRebuild.class.getName());
    private static final String LEASE = "index-rebuild";
    private static final Duration LEASE_TIME_TO_LIVE = Duration.ofSeconds(30);
    private static final Duration LONGEST_WAIT = Duration.ofMinutes(30);
    private static final Duration CHECK_PERIOD = Duration.ofSeconds(5);
    private static final int RECORDS_IN_FLIGHT = 32;

    private final RedisClusterCommands<String, String> redis;
    private final IndexKeys keys;
    private final BucketRecords records;
    private final Leases leases;
    private final RecordLocks locks;
    private final Catalog catalog;
    private final ServerFingerprint servers;
    private final IndexedFacts indexed;
    private final Indexer indexer;
    private final ScheduledExecutorService checks = new ScheduledThreadPoolExecutor(1,
            Thread.ofPlatform().daemon().name("index-check").factory());
    private volatile Disposable connectionEvents;

    IndexRebuild(RedisClusterCommands<String, String> redis, IndexKeys keys, BucketRecords records, Leases leases,
                 RecordLocks locks, Catalog catalog, ServerFingerprint servers, Indexer indexer) {
        this.redis = redis;
        this.keys = keys;
        this.records = records;
        this.leases = leases;
        this.locks = locks;
        this.catalog = catalog;
        this.servers = servers;
        this.indexed = new IndexedFacts(redis, keys);
        this.indexer = indexer;
    }

    /** A lookup in the index, which {@link #lookAgain} repeats. */
    @FunctionalInterface
    interface Lookup<T> {
        T find() throws IOException;
    }

    /**
     * What a lookup that found nothing finds once the index is complete on the current servers: it
     * looks again after {@link #ensureComplete}, even where the index is complete by then, since it
     * may not have been when the lookup ran (a pass of this process or another may have ended in
     * between, the marker then naming the current servers and the entry indexed only since).
     */
    <T> T lookAgain(Lookup<T> lookup) throws IOException {
        ensureComplete();
        return lookup.find();
    }

    /**
     * Rebuilds or reconciles the index unless it is complete on the current servers, waiting if
     * another process is at it. The servers' fingerprint is read afresh, not taken from the cache: a
     * lookup can miss on a Redis that just restarted before this process heard of the drop (the
     * connection events arrive on another thread), and a miss is where a lost entry shows.
     */
    void ensureComplete() throws IOException {
        if (servers.refresh().equals(marker())) {
            return;
        }
        try (Lease lease = leases.acquire(LEASE, LEASE_TIME_TO_LIVE, LONGEST_WAIT)) {
            // Taken before the pass: if Redis restarts during it, the marker names the servers before.
            String fingerprint = servers.current();
            String marker = marker();
            if (!fingerprint.equals(marker)) {
                pass(lease, marker != null);
                call("mark the index complete", () -> redis.set(keys.indexComplete(), fingerprint));
            }
        }
    }

    /**
     * Checks the servers' fingerprint every {@link #CHECK_PERIOD} and whenever a connection comes back
     * up, reconciling at once if they changed; a connection going down makes the fingerprint unknown
     * until then.
     */
    void watch(Flux<Event> events) {
        connectionEvents = events
                .filter(event -> event instanceof DisconnectedEvent || event instanceof ConnectionActivatedEvent)
                .subscribe(event -> {
                    servers.forget();
                    if (event instanceof ConnectionActivatedEvent) {
                        checks.execute(this::check);
                    }
                });
        checks.scheduleWithFixedDelay(this::check, CHECK_PERIOD.toMillis(), CHECK_PERIOD.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void check() {
        try {
            ensureComplete();
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "checking that the Redis index is complete failed; "
                    + "retrying in " + CHECK_PERIOD + " or at the next lookup that finds nothing", e);
        }
    }

    @Override
    public void close() {
        Disposable subscription = connectionEvents;
        if (subscription != null) {
            subscription.dispose();
        }
        checks.shutdownNow();
    }

    private String marker() throws IOException {
        return call("read the index marker", () -> redis.get(keys.indexComplete()));
    }

    /**
     * Applies every listed record to the index, and with {@code removeStale} every index entry whose
     * record the listing lacks, {@value #RECORDS_IN_FLIGHT} at a time: each costs a lease and a read,
     * round trips that would add up to hours one after another on a bucket of a million records.
     *
     * <p>The listing is in key order, so the records of one repository come together (its keys start
     * with {@code <repository>/_}, and no repository name has a component starting with '_'): its
     * index entries are compared with them when the listing moves on, holding one repository's keys
     * in memory rather than the bucket's. Were they not together, entries would only be read back
     * needlessly: an entry is removed only if its record is absent when read under its lock.
     */
    private void pass(Lease lease, boolean removeStale) throws IOException {
        Map<RepositoryName, List<String>> indexedKeys = removeStale ? indexed.keysByRepository() : new HashMap<>();
        AtomicReference<IOException> failure = new AtomicReference<>();
        Semaphore inFlight = new Semaphore(RECORDS_IN_FLIGHT);
        try (ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor()) {
            Applier apply = (key, fact) -> {
                if (failure.get() != null) {
                    throw failure.get();
                }
                if (!lease.isHeld()) {
                    throw new IOException("lost the index-rebuild lease (Redis unreachable for " + LEASE_TIME_TO_LIVE
                            + "?); the next check or lookup starts over");
                }
                acquire(inFlight);
                workers.execute(() -> {
                    try {
                        apply(key, fact);
                    } catch (IOException | RuntimeException e) {
                        failure.compareAndSet(null, e instanceof IOException io ? io
                                : new IOException("cannot index record " + key + ": " + e.getMessage(), e));
                    } finally {
                        inFlight.release();
                    }
                });
            };
            try {
                RepositoryName repository = null;
                Set<String> listed = new HashSet<>();
                for (S3Object object : records.all()) {
                    Optional<BucketRecords.Fact> fact = BucketRecords.parse(object.key());
                    if (fact.isEmpty()) {
                        continue;
                    }
                    if (removeStale && !fact.get().repository().equals(repository)) {
                        removeUnlisted(repository, indexedKeys, listed, apply);
                        repository = fact.get().repository();
                        listed = new HashSet<>();
                    }
                    if (removeStale) {
                        listed.add(object.key());
                    }
                    apply.apply(object.key(), fact.get());
                }
                removeUnlisted(repository, indexedKeys, listed, apply);
                for (RepositoryName unlisted : List.copyOf(indexedKeys.keySet())) {
                    removeUnlisted(unlisted, indexedKeys, Set.of(), apply);
                }
            } catch (SdkException e) {
                failure.compareAndSet(null, new IOException("cannot list the metadata records in the bucket: "
                        + e.getMessage(), e));
            } catch (IOException e) {
                failure.compareAndSet(null, e);
            }
        }
        if (failure.get() != null) {
            throw failure.get();
        }
        if (removeStale) {
            // Repositories whose last link went are still in the catalog (it lives in another slot).
            for (RepositoryName listedRepository : catalog.page(Optional.empty(), Integer.MAX_VALUE)) {
                catalog.forgetIfEmpty(listedRepository);
            }
        }
    }

    @FunctionalInterface
    private interface Applier {
        void apply(String key, BucketRecords.Fact fact) throws IOException;
    }

    /** Applies the entries of {@code repository} (if any left to compare) whose record was not listed. */
    private void removeUnlisted(RepositoryName repository, Map<RepositoryName, List<String>> indexedKeys,
                                Set<String> listed, Applier apply) throws IOException {
        List<String> repositoryKeys = repository == null ? null : indexedKeys.remove(repository);
        if (repositoryKeys == null) {
            return;
        }
        for (BucketRecords.Fact fact : indexed.facts(repository, repositoryKeys)) {
            String key = BucketRecords.key(fact);
            if (!listed.contains(key)) {
                apply.apply(key, fact);
            }
        }
    }

    private void apply(String key, BucketRecords.Fact fact) throws IOException {
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
