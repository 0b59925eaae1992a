package dev.layerfold.registry.auth;

import dev.layerfold.registry.api.Access;
import dev.layerfold.registry.api.AccessGuard;
import dev.layerfold.registry.api.RegistryRequest;
import dev.layerfold.registry.api.Route;
import dev.layerfold.storage.RepositoryName;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Optional;

/**
 * Admits a request only if its caller may do what it asks: a bearer token that grants it, Basic
 * credentials of a user the rules allow it, or no credentials where the rules allow anonymous callers.
 * Whether the repository exists plays no part, so a denial reveals nothing about it.
 */
final class EnforcingGuard implements AccessGuard {

    private final AuthComponents auth;
    private final Challenge challenge;
    private final AuditLog audit;

    EnforcingGuard(AuthComponents auth, Challenge challenge, AuditLog audit) {
        this.auth = auth;
        this.challenge = challenge;
        this.audit = audit;
    }

    @Override
    public Access admit(Route route, RegistryRequest request) {
        Requirement requirement = Requirement.of(route, request.method());
        Optional<String> authorization = request.header("Authorization");
        if (authorization.isPresent() && startsWithIgnoringCase(authorization.get(), "Bearer ") && auth.tokens().isPresent()) {
            return admitToken(request, requirement, authorization.get().substring("Bearer ".length()).trim());
        }
        if (authorization.isPresent() && BasicCredentials.isBasic(authorization.get()) && auth.passwords().isPresent()) {
            Caller caller = basicCaller(authorization.get(), request.remoteAddress())
                    .orElseThrow(() -> challenge.unauthorized(request, requirement,
                            "the user name or password is wrong", Optional.empty()));
            if (!allows(caller, requirement)) {
                throw Challenge.denied(caller.name(), requirement);
            }
            return new CallerAccess(caller);
        }
        if (allows(Caller.ANONYMOUS, requirement)) {
            return new CallerAccess(Caller.ANONYMOUS);
        }
        throw challenge.unauthorized(request, requirement, "authentication required: sign in (docker login) to do this",
                Optional.empty());
    }

    @Override
    public void served(Route route, RegistryRequest request, HttpServletResponse response, Access access) {
        audit.served(route, request, response, access);
    }

    private Access admitToken(RegistryRequest request, Requirement requirement, String token) {
        Grants grants;
        try {
            grants = auth.tokens().get().verify(token);
        } catch (TokenVerifier.InvalidTokenException e) {
            throw challenge.unauthorized(request, requirement, "the bearer token is not valid here: " + e.getMessage()
                    + "; get a new one", Optional.of("invalid_token"));
        }
        boolean granted = switch (requirement) {
            case Requirement.SignedIn signedIn -> true;
            case Requirement.Catalog catalog -> grants.catalog();
            case Requirement.OnRepository on -> grants.allows(on.repository(), on.action());
        };
        if (!granted) {
            throw challenge.unauthorized(request, requirement, "the bearer token does not grant this; get one for the scope"
                    + " the challenge names", Optional.of("insufficient_scope"));
        }
        return new TokenAccess(grants);
    }

    private Optional<Caller> basicCaller(String authorization, String address) {
        try {
            return BasicCredentials.parse(authorization)
                    .flatMap(credentials -> auth.passwords().get().signIn(credentials.user(), credentials.password(), address));
        } catch (PasswordSignIn.TooManyFailures e) {
            throw TokenEndpoint.tooMany(e);
        }
    }

    private boolean allows(Caller caller, Requirement requirement) {
        return switch (requirement) {
            case Requirement.SignedIn signedIn -> caller.signedIn();
            case Requirement.Catalog catalog -> caller.signedIn();
            case Requirement.OnRepository on -> auth.policy().allowed(caller, on.repository()).contains(on.action());
        };
    }

    private static boolean startsWithIgnoringCase(String text, String prefix) {
        return text.regionMatches(true, 0, prefix, 0, prefix.length());
    }

    private final class CallerAccess implements Access {
        private final Caller caller;

        CallerAccess(Caller caller) {
            this.caller = caller;
        }

        @Override
        public String caller() {
            return caller.name();
        }

        @Override
        public boolean mayPull(RepositoryName repository) {
            return auth.policy().allowed(caller, repository).contains(Action.PULL);
        }
    }

    /**
     * A token names exact repositories; where a request reaches beyond them (the catalog), the rules
     * decide for the token's subject, as for that user signed in with a password.
     */
    private final class TokenAccess implements Access {
        private final Grants grants;

        TokenAccess(Grants grants) {
            this.grants = grants;
        }

        @Override
        public String caller() {
            return grants.subject();
        }

        @Override
        public boolean mayPull(RepositoryName repository) {
            if (grants.allows(repository, Action.PULL)) {
                return true;
            }
            Caller subject = grants.subject().equals(Caller.ANONYMOUS.name()) ? Caller.ANONYMOUS : auth.policy().user(grants.subject());
            return auth.policy().allowed(subject, repository).contains(Action.PULL);
        }
    }
}
