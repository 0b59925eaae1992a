package dev.layerfold.dedup.codec.identify;

/**
 * What to tell a person about a gzip member no candidate reproduced: that nothing matched, and which
 * producers write such a header and are not (or not in that configuration) reproduced. A hint from
 * the header's OS byte, never an encoder guess: the member stays stored whole.
 */
public final class UnmatchedMember {

    private static final int OS_FAT = 0;
    private static final int OS_UNIX = 3;
    private static final int OS_UNKNOWN = 255;

    private UnmatchedMember() {
    }

    /** The reason for a member whose header (RFC 1952, verbatim) is {@code gzipHeader}. */
    public static String reason(byte[] gzipHeader) {
        int os = gzipHeader.length > 9 ? gzipHeader[9] & 0xff : -1;
        String likely = switch (os) {
            case OS_UNKNOWN -> "a Go program: klauspost pgzip (podman, buildah, skopeo, CRI-O), klauspost/compress gzip,"
                    + " or compress/gzip of a Go release outside 1.8-1.27";
            case OS_UNIX -> "a Unix gzip: gzip --rsyncable, pigz or zlib with other block size or settings, or another gzip implementation";
            case OS_FAT -> "Java before JDK 16 or another zlib user with settings not tried";
            default -> "unknown (gzip header OS byte " + os + ")";
        };
        return "deflate stream matches no known encoder; likely producer: " + likely;
    }
}
