package dev.layerfold.registry.auth;

import java.util.Set;

/** A signed-in user with the groups it belongs to, or the anonymous caller. */
record Caller(String name, Set<String> groups, boolean signedIn) {

    static final Caller ANONYMOUS = new Caller("anonymous", Set.of(), false);

    static Caller user(String name, Set<String> groups) {
        return new Caller(name, Set.copyOf(groups), true);
    }
}
