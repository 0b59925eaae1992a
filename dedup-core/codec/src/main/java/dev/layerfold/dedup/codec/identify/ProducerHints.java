package dev.layerfold.dedup.codec.identify;

import dev.layerfold.dedup.codec.container.GzipHeader;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;

/**
 * Ranks candidates by what a gzip header says about its producer, so the likely encoder is first
 * (it wins ties, and the others are dropped early anyway). The producers' header habits:
 * Go's compress/gzip (every release) and Python's gzip write OS 255, pigz and GNU gzip write OS 3 (Unix), Java's
 * GZIPOutputStream wrote OS 0 before JDK 16 and 255 since; all set XFL 2 for level 9 and 4 for
 * level 1 (Go for BestSpeed), 0 otherwise.
 */
final class ProducerHints {

    private static final int OS_FAT = 0;
    private static final int OS_UNIX = 3;
    private static final int OS_UNKNOWN = 255;
    private static final int XFL_SLOWEST = 2;
    private static final int XFL_FASTEST = 4;

    private ProducerHints() {
    }

    private static boolean isGo(EncoderSpec spec) {
        return spec.family().equals(StandardEncoders.GO) || spec.family().equals(StandardEncoders.GO127)
                || spec.family().equals(StandardEncoders.PGZIP);
    }

    static int score(EncoderSpec spec, GzipHeader header) {
        int score = 0;
        switch (header.os()) {
            case OS_UNIX -> score += spec.family().equals(StandardEncoders.PIGZ) ? 4
                    : spec.family().equals(StandardEncoders.GNU_GZIP) ? 3 : spec.family().equals("zlib") ? 1 : 0;
            case OS_UNKNOWN -> score += isGo(spec) ? 2 : spec.family().equals("zlib") ? 1 : 0;
            case OS_FAT -> score += spec.family().equals("zlib") ? 2 : 0;
            default -> {
            }
        }
        switch (header.xfl()) {
            case XFL_SLOWEST -> score += spec.level() == 9 ? 3 : 0;
            case XFL_FASTEST -> score += spec.level() == 1 ? 3 : 0;
            default -> score += spec.level() != 1 && spec.level() != 9 ? 1 : 0;
        }
        return score;
    }
}
