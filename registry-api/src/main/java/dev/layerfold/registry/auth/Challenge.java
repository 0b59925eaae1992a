package dev.layerfold.registry.auth;

import dev.layerfold.registry.api.RegistryRequest;
import dev.layerfold.registry.error.ErrorCode;
import dev.layerfold.registry.error.RegistryException;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/** The 401 that tells a client how to sign in: a Bearer challenge naming the token endpoint and scope, or Basic. */
final class Challenge {

    private final AuthProperties.Mode mode;
    private final String service;
    private final Optional<String> realm;

    Challenge(AuthProperties properties) {
        this.mode = properties.mode();
        this.service = properties.service();
        this.realm = properties.tokenRealm().map(Object::toString);
    }

    /**
     * @param error the RFC 6750 error ({@code invalid_token}, {@code insufficient_scope}), if a token was sent
     */
    RegistryException unauthorized(RegistryRequest request, Requirement requirement, String message, Optional<String> error) {
        String header = mode == AuthProperties.Mode.BASIC
                ? "Basic realm=\"" + service + "\""
                : "Bearer realm=\"" + realm.orElse(request.origin() + "/token") + "\",service=\"" + service + "\""
                        + scope(requirement).map(scope -> ",scope=\"" + scope + "\"").orElse("")
                        + error.map(e -> ",error=\"" + e + "\"").orElse("");
        return RegistryException.of(ErrorCode.UNAUTHORIZED, message).withHeader("WWW-Authenticate", header);
    }

    static RegistryException denied(String caller, Requirement requirement) {
        String what = switch (requirement) {
            case Requirement.OnRepository on -> on.action().scopeName() + " in " + on.repository();
            case Requirement.Catalog catalog -> "list the catalog";
            case Requirement.SignedIn signedIn -> "use this registry";
        };
        return RegistryException.of(ErrorCode.DENIED, caller + " may not " + what + "; ask the registry's operator for access");
    }

    /** A push asks for pull too, as Docker clients do: pushing reads back what the repository holds. */
    private static Optional<String> scope(Requirement requirement) {
        return switch (requirement) {
            case Requirement.OnRepository on -> {
                Set<Action> actions = on.action() == Action.PUSH ? EnumSet.of(Action.PULL, Action.PUSH) : EnumSet.of(on.action());
                yield Optional.of(Scope.repository(on.repository().value(), actions).toString());
            }
            case Requirement.Catalog catalog -> Optional.of(Scope.CATALOG.toString());
            case Requirement.SignedIn signedIn -> Optional.empty();
        };
    }
}
