package dev.layerfold.storage;

/**
 * Names a set of repositories, as access rules and retention policies do: {@code team-a/app} (that
 * repository), {@code team-a/*} (every repository below team-a/), {@code *} (all).
 */
public record RepositoryPattern(String pattern) {

    public boolean matches(RepositoryName repository) {
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
