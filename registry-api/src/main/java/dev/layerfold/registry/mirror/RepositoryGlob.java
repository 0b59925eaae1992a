package dev.layerfold.registry.mirror;

import java.util.regex.Pattern;

/**
 * A glob over repository names, as a mirror rule selects repositories from an upstream's catalog:
 * {@code *} is any run of characters within one path component, {@code ?} one character but {@code /},
 * {@code **} any run of characters across components; the rest is literal. {@code library/*} selects
 * {@code library/alpine} but not {@code library/alpine/tools}; {@code team/**} selects both levels.
 */
final class RepositoryGlob {

    private final Pattern pattern;

    private RepositoryGlob(Pattern pattern) {
        this.pattern = pattern;
    }

    /** Whether {@code repository} is a glob rather than one repository's name. */
    static boolean isGlob(String repository) {
        return repository.indexOf('*') >= 0 || repository.indexOf('?') >= 0;
    }

    static RepositoryGlob of(String glob) {
        StringBuilder regex = new StringBuilder();
        StringBuilder literal = new StringBuilder();
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            if (c != '*' && c != '?') {
                literal.append(c);
                continue;
            }
            if (!literal.isEmpty()) {
                regex.append(Pattern.quote(literal.toString()));
                literal.setLength(0);
            }
            if (c == '?') {
                regex.append("[^/]");
            } else if (i + 1 < glob.length() && glob.charAt(i + 1) == '*') {
                regex.append(".*");
                i++;
            } else {
                regex.append("[^/]*");
            }
        }
        if (!literal.isEmpty()) {
            regex.append(Pattern.quote(literal.toString()));
        }
        return new RepositoryGlob(Pattern.compile(regex.toString()));
    }

    boolean matches(String repository) {
        return pattern.matcher(repository).matches();
    }
}
