package dev.layerfold.registry.blob;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A single byte range of a blob, from a request's {@code Range} header (RFC 9110 §14.1.2). Multiple
 * ranges are not served: the whole blob is sent instead, as the RFC allows.
 */
record ByteRange(long first, long last) {

    private static final Pattern SINGLE_RANGE = Pattern.compile("bytes=(\\d*)-(\\d*)");

    long length() {
        return last - first + 1;
    }

    String contentRange(long size) {
        return "bytes " + first + "-" + last + "/" + size;
    }

    /**
     * The range the header asks for within a blob of {@code size} bytes: empty to send the whole blob
     * (no header, or one this registry does not serve), or throws {@link Unsatisfiable}.
     */
    static Optional<ByteRange> parse(String header, long size) {
        if (header == null) {
            return Optional.empty();
        }
        Matcher matcher = SINGLE_RANGE.matcher(header.trim());
        if (!matcher.matches() || (matcher.group(1).isEmpty() && matcher.group(2).isEmpty())) {
            return Optional.empty();
        }
        try {
            if (matcher.group(1).isEmpty()) {
                long suffix = Long.parseLong(matcher.group(2));
                if (suffix == 0 || size == 0) {
                    throw new Unsatisfiable();
                }
                return Optional.of(new ByteRange(Math.max(0, size - suffix), size - 1));
            }
            long first = Long.parseLong(matcher.group(1));
            long requestedLast = matcher.group(2).isEmpty() ? Long.MAX_VALUE : Long.parseLong(matcher.group(2));
            if (requestedLast < first) {
                return Optional.empty(); // syntactically invalid per the RFC: ignored
            }
            long last = Math.min(requestedLast, size - 1);
            if (first >= size) {
                throw new Unsatisfiable();
            }
            return Optional.of(new ByteRange(first, last));
        } catch (NumberFormatException tooLarge) {
            throw new Unsatisfiable();
        }
    }

    /** No byte of the blob lies in the requested range: answered with 416. */
    static final class Unsatisfiable extends RuntimeException {
        Unsatisfiable() {
            super(null, null, false, false);
        }
    }
}
