package dev.layerfold.registry.auth;

import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Who may use the management plane's admin actions (collections, checks and repairs, retention, dedup
 * actions, inventory reads): with sign-in on, only a caller the access rules grant {@code admin}, signed
 * in with Basic credentials of the password file or a bearer token this registry trusts (whose subject
 * the rules then judge, as for a password). With sign-in off, everyone who reaches the port.
 */
public final class AdminAuthorization {

    /**
     * What to answer: {@code admitted}, or the status (401, 403 or 429) and why, with its headers (a
     * challenge for a 401, {@code Retry-After} for a 429).
     */
    public record Decision(boolean admitted, int status, String caller, String message, Map<String, String> headers) {

        static Decision admit(String caller) {
            return new Decision(true, 200, caller, "", Map.of());
        }

        static Decision unauthorized(String message) {
            return new Decision(false, 401, Caller.ANONYMOUS.name(), message,
                    Map.of("WWW-Authenticate", "Basic realm=\"layerfold management\""));
        }

        static Decision denied(String caller) {
            return new Decision(false, 403, caller, caller + " may not use the registry's admin actions; ask for the admin"
                    + " grant (layerfold.auth.access: actions [admin] on repositories ['*'])", Map.of());
        }

        static Decision tooMany(PasswordSignIn.TooManyFailures e) {
            return new Decision(false, 429, Caller.ANONYMOUS.name(), e.getMessage(), Map.of("Retry-After", e.retryAfterSeconds()));
        }
    }

    private final AuthComponents auth;

    AdminAuthorization(AuthComponents auth) {
        this.auth = auth;
    }

    /** Whether sign-in is off, so that every admin action is open to whoever reaches the management port. */
    public boolean open() {
        return auth.properties().mode() == AuthProperties.Mode.NONE;
    }

    /** @param address the client's address, which failed sign-ins are limited by */
    public Decision decide(@Nullable String authorization, String address) {
        if (open()) {
            return Decision.admit(Caller.ANONYMOUS.name());
        }
        if (authorization == null) {
            return Decision.unauthorized("authentication required: admin actions need a user with the admin grant");
        }
        Optional<Caller> caller;
        try {
            caller = signedIn(authorization, address);
        } catch (PasswordSignIn.TooManyFailures e) {
            return Decision.tooMany(e);
        }
        if (caller.isEmpty()) {
            return Decision.unauthorized("the credentials are wrong or the token is not valid here");
        }
        return auth.policy().isAdmin(caller.get()) ? Decision.admit(caller.get().name()) : Decision.denied(caller.get().name());
    }

    private Optional<Caller> signedIn(String authorization, String address) {
        if (BasicCredentials.isBasic(authorization)) {
            return BasicCredentials.parse(authorization).flatMap(credentials -> auth.passwords()
                    .flatMap(users -> users.signIn(credentials.user(), credentials.password(), address)));
        }
        if (authorization.regionMatches(true, 0, "Bearer ", 0, "Bearer ".length()) && auth.tokens().isPresent()) {
            try {
                Grants grants = auth.tokens().get().verify(authorization.substring("Bearer ".length()).trim());
                return grants.subject().equals(Caller.ANONYMOUS.name()) ? Optional.empty() : Optional.of(auth.policy().user(grants.subject()));
            } catch (TokenVerifier.InvalidTokenException e) {
                return Optional.empty();
            }
        }
        return Optional.empty();
    }
}
