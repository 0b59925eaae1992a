package dev.layerfold.storage;

import java.util.regex.Pattern;

/**
 * A repository name per the distribution spec's grammar:
 * {@code [a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*(\/[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*)*}.
 *
 * <p>Names that parse contain no {@code ..}, no leading or trailing separator and no characters
 * outside {@code [a-z0-9._/-]}, so they are safe as path segments and storage keys.
 */
public record RepositoryName(String value) implements Comparable<RepositoryName> {

    /** The spec allows registries to cap name length; distribution caps it at 255. */
    public static final int MAX_LENGTH = 255;

    private static final Pattern COMPONENT = Pattern.compile("[a-z0-9]+(?:(?:\\.|_|__|-+)[a-z0-9]+)*");
    private static final Pattern GRAMMAR = Pattern.compile(COMPONENT + "(?:/" + COMPONENT + ")*");

    public RepositoryName {
        if (value == null || value.isEmpty() || value.length() > MAX_LENGTH || !GRAMMAR.matcher(value).matches()) {
            throw new InvalidRepositoryNameException(value);
        }
    }

    public static RepositoryName of(String value) {
        return new RepositoryName(value);
    }

    @Override
    public int compareTo(RepositoryName other) {
        return value.compareTo(other.value);
    }

    @Override
    public String toString() {
        return value;
    }
}
