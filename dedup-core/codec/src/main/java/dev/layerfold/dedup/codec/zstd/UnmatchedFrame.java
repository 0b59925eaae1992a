package dev.layerfold.dedup.codec.zstd;

import dev.layerfold.dedup.codec.container.ZstdFrameHeader;

/**
 * What to tell a person about a zstd frame no candidate reproduced: that nothing matched, and which
 * producer its header points to. A hint from the header's choices, never an encoder guess: the
 * layer stays intact.
 */
final class UnmatchedFrame {

    /** klauspost/compress/zstd's window: 8 MiB (4 MiB at SpeedFastest), whatever the input's size, in its streaming Writer. */
    private static final int KLAUSPOST_WINDOW_LOG = 23;
    private static final int KLAUSPOST_FASTEST_WINDOW_LOG = 22;

    private UnmatchedFrame() {
    }

    static String reason(ZstdFrameHeader header) {
        return "zstd stream matches no known encoder (klauspost/compress/zstd 1.17.8-1.20.4 at every level, 1.17.7 where its blocks show it, and libzstd " + ZstdEncoders.PROVEN_VERSION
                + " levels 1-" + ZstdEncoders.MAX_LEVEL + ", one thread or several, were tried where the header allows); likely producer: "
                + likely(header);
    }

    private static String likely(ZstdFrameHeader header) {
        if (header.dictionaryId() != 0) {
            return "a compressor with dictionary " + header.dictionaryId() + ", which the layer does not carry";
        }
        boolean streamed = header.contentSize() < 0 && !header.singleSegment();
        if (streamed && header.checksum() && (header.windowLog() == KLAUSPOST_WINDOW_LOG || header.windowLog() == KLAUSPOST_FASTEST_WINDOW_LOG)) {
            return "klauspost/compress/zstd (podman, buildah, skopeo, containerd; its streaming Writer writes a "
                    + (1 << (header.windowLog() - 20)) + " MiB window, no content size and a checksum, as this frame has) at a level or"
                    + " release not ported (every level of compress 1.17.8-1.20.4 is); or libzstd of another release than " + ZstdEncoders.PROVEN_VERSION;
        }
        return "libzstd of another release than " + ZstdEncoders.PROVEN_VERSION + " (zstd 1.5.4's CLI, Debian 12's, writes other bytes at every"
                + " level) or with settings not tried (--long, --ultra, a job size, --rsyncable), or another encoder";
    }
}
