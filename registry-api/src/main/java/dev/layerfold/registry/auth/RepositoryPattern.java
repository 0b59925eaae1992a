package dev.layerfold.registry.auth;

import dev.layerfold.storage.RepositoryName;

/** {@code team-a/app} (that repository), {@code team-a/*} (every repository below team-a/), {@code *} (all). */
record RepositoryPattern(String pattern) {

    boolean matches(RepositoryName repository) {
        String name = repository.value();
        if (pattern.equals("*")) {
            return true;
        }
        if (pattern.endsWith("/*")) {
            return name.startsWith(pattern.substring(0, pattern.length() - 1));
        }
        return name.equals(pattern);
    }
}
