package dev.layerfold.e2e.compose;

import java.util.Map;
import java.util.regex.Pattern;

/**
 * Compose's variable interpolation in the forms {@code docker-compose.yml} uses: {@code ${VAR}} (empty if
 * unset, as compose does), {@code ${VAR:-default}} (the default if unset or empty) and {@code $$} (a
 * literal {@code $}, left for the container's shell). Anything else compose knows ({@code $VAR},
 * {@code ${VAR-default}}, {@code ${VAR:?error}}, {@code ${VAR:+alternative}}, nested defaults...) fails
 * loudly rather than being read differently from compose.
 */
final class ComposeInterpolation {

    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final String SUPPORTED = "only ${VAR}, ${VAR:-default} and $$ are supported";

    private ComposeInterpolation() {
    }

    /** {@code value} with every variable replaced by its value in {@code variables}. */
    static String resolve(String value, Map<String, String> variables) {
        StringBuilder resolved = new StringBuilder(value.length());
        int i = 0;
        while (i < value.length()) {
            char c = value.charAt(i);
            if (c != '$') {
                resolved.append(c);
                i++;
            } else if (value.startsWith("$$", i)) {
                resolved.append('$');
                i += 2;
            } else if (value.startsWith("${", i)) {
                int end = value.indexOf('}', i);
                if (end < 0) {
                    throw unsupported(value, i, "no closing }");
                }
                resolved.append(variable(value, i, value.substring(i + 2, end), variables));
                i = end + 1;
            } else {
                throw unsupported(value, i, "a $ that starts neither ${ nor $$");
            }
        }
        return resolved.toString();
    }

    /** The value of {@code expression}, the text between {@code ${} and {@code }} at {@code start}. */
    private static String variable(String value, int start, String expression, Map<String, String> variables) {
        int separator = expression.indexOf(":-");
        String name = separator < 0 ? expression : expression.substring(0, separator);
        if (!NAME.matcher(name).matches()) {
            throw unsupported(value, start, "'" + expression + "' is not a variable name, optionally with :-default");
        }
        String set = variables.get(name);
        if (separator < 0) {
            return set == null ? "" : set;
        }
        String fallback = expression.substring(separator + 2);
        if (fallback.contains("$")) {
            throw unsupported(value, start, "a nested interpolation in the default of " + name);
        }
        return set == null || set.isEmpty() ? fallback : set;
    }

    private static IllegalArgumentException unsupported(String value, int index, String what) {
        return new IllegalArgumentException("unsupported compose interpolation in '" + value + "' at index " + index
                + ": " + what + "; " + SUPPORTED);
    }
}
