package dev.layerfold.registry.upload;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code Content-Range} of a chunk, {@code <first>-<last>} inclusive as the spec writes it; the
 * RFC 9110 form {@code bytes <first>-<last>/<total>} some clients send is accepted too.
 */
record ContentRange(long first, long last) {

    private static final Pattern FORMAT = Pattern.compile("(?:bytes[ =])?(\\d{1,18})-(\\d{1,18})(?:/(?:\\d+|\\*))?");

    long length() {
        return last - first + 1;
    }

    /** Empty when the header is malformed or its end lies before its start. */
    static Optional<ContentRange> parse(String header) {
        Matcher matcher = FORMAT.matcher(header.trim());
        if (!matcher.matches()) {
            return Optional.empty();
        }
        long first = Long.parseLong(matcher.group(1));
        long last = Long.parseLong(matcher.group(2));
        return last < first ? Optional.empty() : Optional.of(new ContentRange(first, last));
    }
}
