package dev.layerfold.registry.tag;

import java.util.regex.Pattern;

/** The tag grammar of the distribution spec: {@code [a-zA-Z0-9_][a-zA-Z0-9._-]{0,127}}. */
public final class Tags {

    private static final Pattern GRAMMAR = Pattern.compile("[a-zA-Z0-9_][a-zA-Z0-9._-]{0,127}");

    /** What a person reads when a tag is refused. */
    public static final String RULE = "tags are 1 to 128 characters of [a-zA-Z0-9._-], not starting with '.' or '-'";

    private Tags() {
    }

    public static boolean isValid(String tag) {
        return tag != null && GRAMMAR.matcher(tag).matches();
    }
}
