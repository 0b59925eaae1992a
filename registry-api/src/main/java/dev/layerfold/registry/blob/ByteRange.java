package dev.layerfold.registry.blob;

import java.util.List;
import java.util.Optional;
import org.springframework.http.HttpRange;

/**
 * The single byte range of a blob a request asks for, parsed by Spring's {@link HttpRange} (RFC 9110
 * §14.1.2). Several ranges are not served: the whole blob is sent instead, as the RFC allows.
 */
record ByteRange(long first, long last) {

    long length() {
        return last - first + 1;
    }

    String contentRange(long size) {
        return "bytes " + first + "-" + last + "/" + size;
    }

    /**
     * The range the header asks for within a blob of {@code size} bytes: empty to send the whole blob
     * (no header, one that is malformed or names several ranges), or throws {@link Unsatisfiable}.
     */
    static Optional<ByteRange> parse(String header, long size) {
        if (header == null) {
            return Optional.empty();
        }
        List<HttpRange> ranges;
        try {
            ranges = HttpRange.parseRanges(header.trim());
        } catch (IllegalArgumentException malformed) {
            return Optional.empty(); // an invalid Range is ignored (RFC 9110 §14.2)
        }
        if (ranges.size() != 1) {
            return Optional.empty();
        }
        long first;
        long last;
        try {
            first = ranges.getFirst().getRangeStart(size);
            last = ranges.getFirst().getRangeEnd(size);
        } catch (IllegalArgumentException beyondTheEnd) {
            throw new Unsatisfiable();
        }
        if (first > last) { // a suffix of 0 bytes, or any range of an empty blob
            throw new Unsatisfiable();
        }
        return Optional.of(new ByteRange(first, last));
    }

    /** No byte of the blob lies in the requested range: answered with 416. */
    static final class Unsatisfiable extends RuntimeException {
        Unsatisfiable() {
            super(null, null, false, false);
        }
    }
}
