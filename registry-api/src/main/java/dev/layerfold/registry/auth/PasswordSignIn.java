package dev.layerfold.registry.auth;

import java.time.Duration;
import java.util.Optional;

/**
 * Signs a user in with a password of the password file, wherever one is sent (Basic credentials on
 * either port, the token endpoint), with failed attempts limited by {@link FailedSignIns}.
 */
final class PasswordSignIn {

    /** Too many failed sign-ins for this user or from this address: try again after {@code retryAfter}. */
    static final class TooManyFailures extends RuntimeException {
        private final Duration retryAfter;

        TooManyFailures(Duration retryAfter) {
            super("too many failed sign-ins for this user or from this address; try again in "
                    + Math.max(1, retryAfter.toSeconds()) + " s", null, false, false);
            this.retryAfter = retryAfter;
        }

        /** Whole seconds, rounded up: the value of a {@code Retry-After} header. */
        String retryAfterSeconds() {
            return Long.toString(Math.max(1, (retryAfter.toMillis() + 999) / 1000));
        }
    }

    private final PasswordFile passwords;
    private final AccessPolicy policy;
    private final FailedSignIns failures;

    PasswordSignIn(PasswordFile passwords, AccessPolicy policy, FailedSignIns failures) {
        this.passwords = passwords;
        this.policy = policy;
        this.failures = failures;
    }

    /**
     * The caller whose password this is; empty if it is not (a failure, counted).
     *
     * @param address the client's address, as the servlet container reports it
     * @throws TooManyFailures before the password is checked, while this user or address is held back
     */
    Optional<Caller> signIn(String user, String password, String address) {
        Optional<Duration> wait = failures.waitBeforeTrying(user, address);
        if (wait.isPresent()) {
            throw new TooManyFailures(wait.get());
        }
        Optional<String> verified = passwords.verify(user, password);
        if (verified.isEmpty()) {
            failures.failed(user, address);
            return Optional.empty();
        }
        failures.succeeded(user, address);
        return verified.map(policy::user);
    }
}
