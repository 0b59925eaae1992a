package dev.layerfold.dedup.codec.identify;

import dev.layerfold.dedup.codec.container.GzipHeader;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;

/**
 * Ranks candidates by what a gzip header says about its producer, so the likely encoder is first
 * (it wins ties, and the others are dropped early anyway). The OS byte is each family's own habit
 * ({@link EncoderFamily#osScore}); the XFL byte is common to all: every producer sets 2 for level 9
 * and 4 for level 1 (Go for BestSpeed), 0 otherwise.
 */
final class ProducerHints {

    private static final int XFL_SLOWEST = 2;
    private static final int XFL_FASTEST = 4;

    private ProducerHints() {
    }

    static int score(EncoderFactory families, EncoderSpec spec, GzipHeader header) {
        int score = families.osScore(spec, header);
        switch (header.xfl()) {
            case XFL_SLOWEST -> score += spec.level() == 9 ? 3 : 0;
            case XFL_FASTEST -> score += spec.level() == 1 ? 3 : 0;
            default -> score += spec.level() != 1 && spec.level() != 9 ? 1 : 0;
        }
        return score;
    }
}
