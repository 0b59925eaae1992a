package dev.layerfold.registry.auth;

import java.util.Locale;
import java.util.Optional;

/**
 * What a caller may do in a repository, named as in token scopes ({@code repository:<name>:pull,push}),
 * and {@link #ADMIN}: the management plane's admin actions, granted by a rule on {@code *} only.
 */
public enum Action {
    PULL, PUSH, DELETE,
    /** Run collections, checks, repairs, retention and dedup actions, and read the inventory: never a token scope. */
    ADMIN;

    String scopeName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** An action of a scope; unknown ones ({@code *}, vendor actions) are ignored, as tokens may carry them. */
    static Optional<Action> fromScopeName(String name) {
        for (Action action : values()) {
            if (action != ADMIN && action.scopeName().equals(name)) {
                return Optional.of(action);
            }
        }
        return Optional.empty();
    }
}
