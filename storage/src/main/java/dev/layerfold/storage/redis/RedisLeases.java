package dev.layerfold.storage.redis;

import dev.layerfold.storage.lease.Lease;
import dev.layerfold.storage.lease.LeaseUnavailableException;
import dev.layerfold.storage.lease.Leases;
import io.lettuce.core.RedisException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Leases as Redis keys: {@code SET key token NX PX ttl} takes one, and Lua scripts renew and release
 * it only while the key still holds this holder's random token, so a holder that lost its lease can
 * never extend or delete the next holder's. A heartbeat renews every lease a third of its
 * time-to-live; a holder that cannot renew before the time-to-live passes considers the lease lost.
 *
 * <p>{@link #close()} stops the heartbeats without releasing anything: leases still open then expire
 * on their own, exactly as if the process had died.
 */
public final class RedisLeases implements Leases, AutoCloseable {

    private static final Duration MINIMUM_TIME_TO_LIVE = Duration.ofMillis(100);
    private static final Duration LONGEST_POLL = Duration.ofMillis(100);

    private static final RedisScript RENEW = new RedisScript("""
            if redis.call('get', KEYS[1]) == ARGV[1] then
              return redis.call('pexpire', KEYS[1], ARGV[2])
            end
            return 0""");
    private static final RedisScript RELEASE = new RedisScript("""
            if redis.call('get', KEYS[1]) == ARGV[1] then
              return redis.call('del', KEYS[1])
            end
            return 0""");

    private final RedisClusterCommands<String, String> redis;
    private final String keyPrefix;
    private final ScheduledExecutorService heartbeats;

    public RedisLeases(RedisClusterCommands<String, String> redis, String namespace) {
        this.redis = redis;
        this.keyPrefix = namespace + ":lease:";
        ScheduledThreadPoolExecutor heartbeats = new ScheduledThreadPoolExecutor(1, Thread.ofPlatform().daemon()
                .name("lease-heartbeat").factory());
        // Most leases (record locks) are released long before their first heartbeat: drop those at once.
        heartbeats.setRemoveOnCancelPolicy(true);
        this.heartbeats = heartbeats;
    }

    @Override
    public Optional<Lease> tryAcquire(String name, Duration timeToLive) throws IOException {
        if (timeToLive.compareTo(MINIMUM_TIME_TO_LIVE) < 0) {
            throw new IllegalArgumentException("lease time-to-live " + timeToLive + " is below " + MINIMUM_TIME_TO_LIVE);
        }
        String key = keyPrefix + name;
        String token = UUID.randomUUID().toString();
        try {
            String reply = redis.set(key, token, SetArgs.Builder.nx().px(timeToLive.toMillis()));
            return "OK".equals(reply) ? Optional.of(new HeldLease(name, key, token, timeToLive)) : Optional.empty();
        } catch (RedisException e) {
            throw new IOException("cannot take lease '" + name + "' in Redis: " + e.getMessage(), e);
        }
    }

    @Override
    public Lease acquire(String name, Duration timeToLive, Duration maxWait) throws IOException {
        long deadline = System.nanoTime() + maxWait.toNanos();
        Duration pause = Duration.ofMillis(2);
        while (true) {
            Optional<Lease> lease = tryAcquire(name, timeToLive);
            if (lease.isPresent()) {
                return lease.get();
            }
            if (System.nanoTime() - deadline > 0) {
                throw new LeaseUnavailableException(name, maxWait);
            }
            try {
                Thread.sleep(pause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for lease '" + name + "'", e);
            }
            pause = pause.multipliedBy(2).compareTo(LONGEST_POLL) > 0 ? LONGEST_POLL : pause.multipliedBy(2);
        }
    }

    @Override
    public void close() {
        heartbeats.shutdownNow();
    }

    private final class HeldLease implements Lease {
        private final String name;
        private final String key;
        private final String token;
        private final long timeToLiveNanos;
        private final ScheduledFuture<?> heartbeat;
        private volatile boolean released;
        private volatile long renewedAtNanos;

        HeldLease(String name, String key, String token, Duration timeToLive) {
            this.name = name;
            this.key = key;
            this.token = token;
            this.timeToLiveNanos = timeToLive.toNanos();
            this.renewedAtNanos = System.nanoTime();
            long period = timeToLive.toMillis() / 3;
            this.heartbeat = heartbeats.scheduleAtFixedRate(this::renew, period, period, TimeUnit.MILLISECONDS);
        }

        private void renew() {
            long attemptedAt = System.nanoTime();
            try {
                if (RENEW.returnsTrue(redis, new String[] {key}, token, Long.toString(timeToLiveNanos / 1_000_000))) {
                    renewedAtNanos = attemptedAt;
                } else {
                    released = true; // expired and possibly taken by someone else: it is not ours any more
                    heartbeat.cancel(false);
                }
            } catch (RedisException unreachable) {
                // Keep trying until the time-to-live runs out; isHeld() turns false then.
            }
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public boolean isHeld() {
            return !released && System.nanoTime() - renewedAtNanos < timeToLiveNanos;
        }

        @Override
        public void close() {
            heartbeat.cancel(false);
            if (released) {
                return;
            }
            released = true;
            try {
                RELEASE.run(redis, ScriptOutputType.INTEGER, new String[] {key}, token);
            } catch (RedisException unreachable) {
                // The lease expires on its own after its time-to-live.
            }
        }
    }
}
