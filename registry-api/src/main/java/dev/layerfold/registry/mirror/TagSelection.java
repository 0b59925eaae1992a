package dev.layerfold.registry.mirror;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Which of an upstream repository's tags a mirror rule keeps: those matching any of its patterns
 * (globs, or regular expressions after {@code regex:}), and, if it has one, within its version range.
 */
final class TagSelection {

    /** {@code v1.2.3}, {@code 1.2}, {@code 3}, with an optional pre-release or build suffix ({@code 1.2.3-alpine}). */
    private static final Pattern VERSION = Pattern.compile("v?(\\d{1,9})(?:\\.(\\d{1,9}))?(?:\\.(\\d{1,9}))?([-+].*)?");
    private static final Pattern COMPARISON = Pattern.compile("(>=|<=|>|<|=)?(.+)");

    private final List<Pattern> patterns;
    private final List<Comparison> range;

    private record Comparison(String operator, int[] version) {
        boolean holdsFor(int[] candidate) {
            int order = compare(candidate, version);
            return switch (operator) {
                case ">" -> order > 0;
                case ">=" -> order >= 0;
                case "<" -> order < 0;
                case "<=" -> order <= 0;
                default -> order == 0;
            };
        }
    }

    private TagSelection(List<Pattern> patterns, List<Comparison> range) {
        this.patterns = patterns;
        this.range = range;
    }

    /** @throws IllegalArgumentException for a pattern or range it cannot read */
    static TagSelection of(List<String> tagPatterns, String semver) {
        List<Pattern> patterns = new ArrayList<>();
        for (String pattern : tagPatterns) {
            try {
                patterns.add(pattern.startsWith("regex:") ? Pattern.compile(pattern.substring("regex:".length()))
                        : glob(pattern));
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException("layerfold.mirror.rules[].tags: not a pattern: " + pattern, e);
            }
        }
        List<Comparison> range = new ArrayList<>();
        if (semver != null && !semver.isBlank()) {
            for (String part : semver.trim().split("\\s+")) {
                Matcher matcher = COMPARISON.matcher(part);
                Optional<int[]> version = matcher.matches() ? version(matcher.group(2)) : Optional.empty();
                if (version.isEmpty()) {
                    throw new IllegalArgumentException("layerfold.mirror.rules[].semver: not a comparison such as >=1.2: "
                            + part + " (in " + semver + ")");
                }
                range.add(new Comparison(matcher.group(1) == null ? "=" : matcher.group(1), version.get()));
            }
        }
        return new TagSelection(List.copyOf(patterns), List.copyOf(range));
    }

    boolean selects(String tag) {
        if (!patterns.isEmpty() && patterns.stream().noneMatch(pattern -> pattern.matcher(tag).matches())) {
            return false;
        }
        if (range.isEmpty()) {
            return true;
        }
        Optional<int[]> version = version(tag);
        return version.isPresent() && range.stream().allMatch(comparison -> comparison.holdsFor(version.get()));
    }

    /**
     * A tag's version as major, minor, patch (missing parts 0), and whether it has a suffix: a
     * pre-release or variant ({@code 1.2.3-rc1}, {@code 3.20-alpine}) sorts before the plain version, as in semver.
     */
    private static Optional<int[]> version(String text) {
        Matcher matcher = VERSION.matcher(text);
        if (!matcher.matches()) {
            return Optional.empty();
        }
        int[] version = new int[4];
        for (int part = 0; part < 3; part++) {
            String digits = matcher.group(part + 1);
            version[part] = digits == null ? 0 : Integer.parseInt(digits);
        }
        version[3] = matcher.group(4) != null && matcher.group(4).startsWith("-") ? 0 : 1;
        return Optional.of(version);
    }

    private static int compare(int[] a, int[] b) {
        for (int part = 0; part < a.length; part++) {
            int order = Integer.compare(a[part], b[part]);
            if (order != 0) {
                return order;
            }
        }
        return 0;
    }

    /** A glob as a pattern: {@code *} any run of characters, {@code ?} one character, the rest literal. */
    private static Pattern glob(String glob) {
        StringBuilder regex = new StringBuilder();
        StringBuilder literal = new StringBuilder();
        for (char c : glob.toCharArray()) {
            if (c == '*' || c == '?') {
                if (!literal.isEmpty()) {
                    regex.append(Pattern.quote(literal.toString()));
                    literal.setLength(0);
                }
                regex.append(c == '*' ? ".*" : ".");
            } else {
                literal.append(c);
            }
        }
        if (!literal.isEmpty()) {
            regex.append(Pattern.quote(literal.toString()));
        }
        return Pattern.compile(regex.toString());
    }
}
