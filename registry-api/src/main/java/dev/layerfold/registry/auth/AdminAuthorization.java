package dev.layerfold.registry.auth;

import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Who may use the management plane's admin actions (collections, checks and repairs, retention, dedup
 * actions, inventory reads): with sign-in on, only a caller the access rules grant {@code admin}, signed
 * in with Basic credentials of the password file or a bearer token this registry trusts (whose subject
 * the rules then judge, as for a password). With sign-in off, everyone who reaches the port.
 */
public final class AdminAuthorization {

    /** What to answer: {@code admitted}, or the status (401 or 403) and why, with a challenge for a 401. */
    public record Decision(boolean admitted, int status, String caller, String message, Optional<String> challenge) {

        static Decision admit(String caller) {
            return new Decision(true, 200, caller, "", Optional.empty());
        }

        static Decision unauthorized(String message) {
            return new Decision(false, 401, Caller.ANONYMOUS.name(), message, Optional.of("Basic realm=\"layerfold management\""));
        }

        static Decision denied(String caller) {
            return new Decision(false, 403, caller, caller + " may not use the registry's admin actions; ask for the admin"
                    + " grant (layerfold.auth.access: actions [admin] on repositories ['*'])", Optional.empty());
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

    public Decision decide(@Nullable String authorization) {
        if (open()) {
            return Decision.admit(Caller.ANONYMOUS.name());
        }
        if (authorization == null) {
            return Decision.unauthorized("authentication required: admin actions need a user with the admin grant");
        }
        Optional<Caller> caller = signedIn(authorization);
        if (caller.isEmpty()) {
            return Decision.unauthorized("the credentials are wrong or the token is not valid here");
        }
        return auth.policy().isAdmin(caller.get()) ? Decision.admit(caller.get().name()) : Decision.denied(caller.get().name());
    }

    private Optional<Caller> signedIn(String authorization) {
        if (BasicCredentials.isBasic(authorization)) {
            return BasicCredentials.parse(authorization).flatMap(credentials -> auth.passwords()
                    .flatMap(users -> users.verify(credentials.user(), credentials.password()))).map(auth.policy()::user);
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
