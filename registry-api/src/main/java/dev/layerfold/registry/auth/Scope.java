package dev.layerfold.registry.auth;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One entry of a token request's {@code scope} or of a token's {@code access} claim, as the Docker
 * token specification writes them: {@code repository:team/app:pull,push} or {@code registry:catalog:*}.
 */
record Scope(String type, String name, Set<String> actions) {

    static final String REPOSITORY = "repository";
    static final Scope CATALOG = new Scope("registry", "catalog", Set.of("*"));

    static Scope repository(String name, Set<Action> actions) {
        return new Scope(REPOSITORY, name, actions.stream().map(Action::scopeName).collect(Collectors.toUnmodifiableSet()));
    }

    /** Parses a scope; names may contain ':' (a registry host with a port), so the type and actions are split off the ends. */
    static Optional<Scope> parse(String text) {
        int first = text.indexOf(':');
        int last = text.lastIndexOf(':');
        if (first <= 0 || last == first) {
            return Optional.empty();
        }
        Set<String> actions = Arrays.stream(text.substring(last + 1).split(","))
                .map(String::trim).filter(action -> !action.isEmpty()).collect(Collectors.toUnmodifiableSet());
        return Optional.of(new Scope(text.substring(0, first), text.substring(first + 1, last), actions));
    }

    /** A request's {@code scope} parameters: each may list several scopes separated by spaces. */
    static List<Scope> parseAll(List<String> parameters) {
        return parameters.stream().flatMap(parameter -> Arrays.stream(parameter.split(" ")))
                .filter(text -> !text.isBlank()).map(Scope::parse).flatMap(Optional::stream).toList();
    }

    Set<Action> repositoryActions() {
        Set<Action> result = EnumSet.noneOf(Action.class);
        actions.forEach(action -> Action.fromScopeName(action).ifPresent(result::add));
        return result;
    }

    @Override
    public String toString() {
        return type + ":" + name + ":" + actions.stream().sorted().collect(Collectors.joining(","));
    }
}
