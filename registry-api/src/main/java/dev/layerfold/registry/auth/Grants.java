package dev.layerfold.registry.auth;

import dev.layerfold.storage.RepositoryName;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a verified token lets its bearer do: the repositories named in its {@code access} claim, and
 * whether it may list the catalog. Only the exact names count, as in the Docker token specification.
 */
record Grants(String subject, Map<String, Set<Action>> repositories, boolean catalog, Instant expiresAt) {

    static Grants of(String subject, List<Scope> access, Instant expiresAt) {
        Map<String, Set<Action>> repositories = access.stream()
                .filter(scope -> scope.type().equals(Scope.REPOSITORY))
                .collect(Collectors.toUnmodifiableMap(Scope::name, Scope::repositoryActions, (a, b) -> {
                    Set<Action> union = EnumSet.noneOf(Action.class);
                    union.addAll(a);
                    union.addAll(b);
                    return union;
                }));
        boolean catalog = access.stream().anyMatch(scope -> scope.type().equals(Scope.CATALOG.type())
                && scope.name().equals(Scope.CATALOG.name()) && scope.actions().contains("*"));
        return new Grants(subject, repositories, catalog, expiresAt);
    }

    boolean allows(RepositoryName repository, Action action) {
        return repositories.getOrDefault(repository.value(), Set.of()).contains(action);
    }
}
