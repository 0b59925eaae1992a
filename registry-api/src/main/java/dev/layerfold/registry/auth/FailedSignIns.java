package dev.layerfold.registry.auth;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.TimeMeter;
import java.time.Duration;
import java.util.Optional;

/**
 * Slows password guessing: failed sign-ins drain a token bucket per user name and one per client
 * address, refilled over {@code period}; while either is empty, further attempts are refused before
 * the password is looked at. A user's bucket does not hold back an address that user signed in from
 * successfully in the last day, so a client that signs in is never slowed by someone else guessing
 * its password from elsewhere (a new address is, until the guessing stops). Successful sign-ins
 * cost nothing.
 */
final class FailedSignIns {

    private static final Duration REMEMBER_GOOD_ADDRESS = Duration.ofDays(1);

    /** Failures allowed per user and per address, refilled evenly over {@code period}. */
    record Limits(int perUser, int perAddress, Duration period) {

        Limits {
            if (perUser < 1 || perAddress < 1 || period.isNegative() || period.isZero()) {
                throw new IllegalArgumentException("layerfold.auth.failed-sign-ins: per-user and per-address must be at"
                        + " least 1 and period positive, not " + perUser + ", " + perAddress + ", " + period);
            }
        }
    }

    private final Limits limits;
    private final TimeMeter clock;
    private final Cache<String, Bucket> users;
    private final Cache<String, Bucket> addresses;
    private final Cache<String, Boolean> goodAddresses = Caffeine.newBuilder()
            .expireAfterWrite(REMEMBER_GOOD_ADDRESS).maximumSize(100_000).build();

    FailedSignIns(Limits limits, TimeMeter clock) {
        this.limits = limits;
        this.clock = clock;
        // A bucket untouched for a period is full again: forgetting it then changes nothing.
        this.users = Caffeine.newBuilder().expireAfterAccess(limits.period()).maximumSize(100_000).build();
        this.addresses = Caffeine.newBuilder().expireAfterAccess(limits.period()).maximumSize(100_000).build();
    }

    /** How long {@code user} at {@code address} must wait before trying again; empty if they may try now. */
    Optional<Duration> waitBeforeTrying(String user, String address) {
        long nanos = waitNanos(addresses.getIfPresent(address));
        if (goodAddresses.getIfPresent(pair(user, address)) == null) {
            nanos = Math.max(nanos, waitNanos(users.getIfPresent(user)));
        }
        return nanos == 0 ? Optional.empty() : Optional.of(Duration.ofNanos(nanos));
    }

    void failed(String user, String address) {
        users.get(user, name -> bucket(limits.perUser())).tryConsume(1);
        addresses.get(address, name -> bucket(limits.perAddress())).tryConsume(1);
    }

    void succeeded(String user, String address) {
        goodAddresses.put(pair(user, address), Boolean.TRUE);
    }

    private static long waitNanos(Bucket bucket) {
        if (bucket == null) {
            return 0;
        }
        var estimate = bucket.estimateAbilityToConsume(1);
        return estimate.canBeConsumed() ? 0 : estimate.getNanosToWaitForRefill();
    }

    private Bucket bucket(int capacity) {
        return Bucket.builder()
                .addLimit(limit -> limit.capacity(capacity).refillGreedy(capacity, limits.period()))
                .withCustomTimePrecision(clock)
                .build();
    }

    private static String pair(String user, String address) {
        return user + '\n' + address;
    }
}
