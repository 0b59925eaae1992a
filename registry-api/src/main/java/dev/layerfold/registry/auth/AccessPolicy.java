package dev.layerfold.registry.auth;

import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.RepositoryPattern;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The configured rules: which actions a caller may take on a repository. Rules only grant, so the
 * order they are written in does not matter.
 */
final class AccessPolicy {

    private record CompiledRule(List<RepositoryPattern> repositories, Set<String> users, Set<String> groups,
                                Set<Action> actions) {

        boolean grantsAdmin() {
            return actions.contains(Action.ADMIN);
        }
    }

    /** The repository actions; {@link Action#ADMIN} is about the registry, not a repository. */
    private static final Set<Action> REPOSITORY_ACTIONS = EnumSet.of(Action.PULL, Action.PUSH, Action.DELETE);

    private final List<CompiledRule> rules;
    private final Map<String, List<String>> groups;

    AccessPolicy(List<AuthProperties.Rule> rules, Map<String, List<String>> groups) {
        rules.forEach(AccessPolicy::requireAdminOnEveryRepository);
        this.rules = rules.isEmpty()
                ? List.of(new CompiledRule(List.of(new RepositoryPattern("*")), Set.of("*"), Set.of(), EnumSet.allOf(Action.class)))
                : rules.stream().map(rule -> new CompiledRule(rule.repositories().stream().map(RepositoryPattern::new).toList(),
                        Set.copyOf(rule.users()), Set.copyOf(rule.groups()),
                        rule.actions().isEmpty() ? Set.of() : EnumSet.copyOf(rule.actions()))).toList();
        this.groups = Map.copyOf(groups);
    }

    /** The caller for a user name (from a password file or a token's subject), with its groups. */
    Caller user(String name) {
        Set<String> memberOf = new HashSet<>();
        groups.forEach((group, members) -> {
            if (members.contains(name)) {
                memberOf.add(group);
            }
        });
        return Caller.user(name, memberOf);
    }

    Set<Action> allowed(Caller caller, RepositoryName repository) {
        Set<Action> allowed = EnumSet.noneOf(Action.class);
        for (CompiledRule rule : rules) {
            if (appliesTo(rule, caller) && rule.repositories().stream().anyMatch(pattern -> pattern.matches(repository))) {
                allowed.addAll(rule.actions());
            }
        }
        allowed.retainAll(REPOSITORY_ACTIONS);
        return allowed;
    }

    /**
     * Whether the caller may use the management plane's admin actions: a signed-in caller a rule grants
     * {@code admin} (only ever on {@code *}). Without rules every signed-in user may, as they may do everything.
     */
    boolean isAdmin(Caller caller) {
        return caller.signedIn() && rules.stream().anyMatch(rule -> rule.grantsAdmin() && appliesTo(rule, caller));
    }

    private static void requireAdminOnEveryRepository(AuthProperties.Rule rule) {
        if (rule.actions().contains(Action.ADMIN) && !rule.repositories().equals(List.of("*"))) {
            throw new IllegalArgumentException("layerfold.auth.access: the admin action is about the whole registry and is"
                    + " granted on repositories '*' only, not on " + rule.repositories());
        }
    }

    private static boolean appliesTo(CompiledRule rule, Caller caller) {
        if (rule.users().contains("anonymous")) {
            return true; // what anyone may do, a signed-in user may do too
        }
        return caller.signedIn() && (rule.users().contains("*") || rule.users().contains(caller.name())
                || caller.groups().stream().anyMatch(rule.groups()::contains));
    }
}
