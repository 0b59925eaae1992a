package dev.layerfold.registry.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layerfold.storage.RepositoryName;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AccessPolicyTest {

    private final AccessPolicy policy = new AccessPolicy(List.of(
            new AuthProperties.Rule(List.of("team-a/*"), List.of(), List.of("team-a"), List.of(Action.PULL, Action.PUSH)),
            new AuthProperties.Rule(List.of("team-a/app"), List.of("bob"), List.of(), List.of(Action.DELETE)),
            new AuthProperties.Rule(List.of("public/*"), List.of("anonymous"), List.of(), List.of(Action.PULL)),
            new AuthProperties.Rule(List.of("*"), List.of("*"), List.of(), List.of())),
            Map.of("team-a", List.of("alice", "bob")));

    @Test
    void aNamespacePatternCoversEveryDepthBelowItAndNothingBesideIt() {
        Caller alice = policy.user("alice");

        assertThat(policy.allowed(alice, RepositoryName.of("team-a/app"))).containsExactlyInAnyOrder(Action.PULL, Action.PUSH);
        assertThat(policy.allowed(alice, RepositoryName.of("team-a/tools/build"))).contains(Action.PUSH);
        assertThat(policy.allowed(alice, RepositoryName.of("team-ab/app"))).isEmpty();
        assertThat(policy.allowed(alice, RepositoryName.of("team-a"))).isEmpty();
    }

    @Test
    void rulesAddUpAndAnonymousRulesApplyToEveryone() {
        assertThat(policy.allowed(policy.user("bob"), RepositoryName.of("team-a/app")))
                .containsExactlyInAnyOrder(Action.PULL, Action.PUSH, Action.DELETE);
        assertThat(policy.allowed(Caller.ANONYMOUS, RepositoryName.of("public/base"))).containsExactly(Action.PULL);
        assertThat(policy.allowed(policy.user("carol"), RepositoryName.of("public/base"))).containsExactly(Action.PULL);
        assertThat(policy.allowed(Caller.ANONYMOUS, RepositoryName.of("team-a/app"))).isEmpty();
    }

    @Test
    void withoutRulesEverySignedInUserMayDoEverythingAndAnonymousNothing() {
        AccessPolicy open = new AccessPolicy(List.of(), Map.of());

        assertThat(open.allowed(open.user("anyone"), RepositoryName.of("x/y")))
                .containsExactlyInAnyOrder(Action.PULL, Action.PUSH, Action.DELETE);
        assertThat(open.allowed(Caller.ANONYMOUS, RepositoryName.of("x/y"))).isEmpty();
        assertThat(open.isAdmin(open.user("anyone"))).isTrue();
        assertThat(open.isAdmin(Caller.ANONYMOUS)).isFalse();
    }

    @Test
    void adminIsGrantedToUsersAndGroupsOnEveryRepositoryAndNeverToAnonymousCallers() {
        AccessPolicy admins = new AccessPolicy(List.of(
                new AuthProperties.Rule(List.of("*"), List.of(), List.of("ops"), List.of(Action.ADMIN)),
                new AuthProperties.Rule(List.of("*"), List.of("anonymous"), List.of(), List.of(Action.PULL, Action.ADMIN))),
                Map.of("ops", List.of("olga")));

        assertThat(admins.isAdmin(admins.user("olga"))).isTrue();
        assertThat(admins.isAdmin(Caller.ANONYMOUS)).isFalse();
        assertThat(admins.allowed(admins.user("olga"), RepositoryName.of("x/y"))).containsExactly(Action.PULL);
        assertThat(policy.isAdmin(policy.user("alice"))).isFalse();
    }

    @Test
    void adminOnLessThanEveryRepositoryIsRefused() {
        assertThatThrownBy(() -> new AccessPolicy(List.of(
                new AuthProperties.Rule(List.of("team-a/*"), List.of("alice"), List.of(), List.of(Action.ADMIN))), Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'*'");
    }

    @Test
    void adminIsNoTokenScopeAction() {
        assertThat(Action.fromScopeName("admin")).isEmpty();
    }
}
