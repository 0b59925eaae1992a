package dev.layerfold.registry.proxy;

import dev.layerfold.registry.error.ErrorCode;
import dev.layerfold.registry.error.RegistryException;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/** An upstream that did not give what was asked for; counted per upstream under its {@link Reason}. */
public final class UpstreamException extends IOException {

    /** Why an upstream request failed: the {@code reason} label of the failures metric. */
    public enum Reason {
        UNREACHABLE, TIMEOUT, STATUS, RATE_LIMITED, UNAUTHORIZED, REDIRECTS, DIGEST_MISMATCH, TOO_LARGE, TRUNCATED;

        String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final String upstream;
    private final Reason reason;
    private final Optional<Duration> retryAfter;

    UpstreamException(String upstream, Reason reason, String message, Optional<Duration> retryAfter, Throwable cause) {
        super("upstream " + upstream + ": " + message, cause);
        this.upstream = upstream;
        this.reason = reason;
        this.retryAfter = retryAfter;
    }

    UpstreamException(String upstream, Reason reason, String message) {
        this(upstream, reason, message, Optional.empty(), null);
    }

    public Reason reason() {
        return reason;
    }

    public String upstream() {
        return upstream;
    }

    /** How long the upstream asked to be left alone, when it answered 429. */
    public Optional<Duration> retryAfter() {
        return retryAfter;
    }

    /**
     * What the client is told: 429 with the upstream's Retry-After when it is rate-limiting us, else
     * UNAVAILABLE (503), naming the upstream and why, so the fault is not taken for a missing image.
     */
    public RegistryException toRegistryError(String what) {
        if (reason == Reason.RATE_LIMITED) {
            return RegistryException.of(ErrorCode.TOOMANYREQUESTS, what + " is not cached and " + getMessage(),
                            Map.of("upstream", upstream))
                    .withHeader("Retry-After", Long.toString(Math.max(1, retryAfter.orElse(Duration.ofMinutes(1)).toSeconds())));
        }
        return RegistryException.of(ErrorCode.UNAVAILABLE, what + " is not cached and could not be fetched: " + getMessage(),
                Map.of("upstream", upstream, "reason", reason.label()));
    }
}
