package dev.layerfold.dedup.codec.deflate.golang;

import java.io.IOException;

/**
 * Level 1 (BestSpeed): {@link DeflateFast} over each 65535-byte window, one block per window; Go's
 * {@code encSpeed} in {@code deflate.go}.
 */
final class BestSpeedCompressor extends StoreWindowCompressor {

    private final DeflateFast bestSpeed = new DeflateFast();
    /** One token per input byte at most, plus the end-of-block marker. */
    private final int[] tokens = new int[HuffmanBitWriter.MAX_STORE_BLOCK_SIZE + 1];

    BestSpeedCompressor(HuffmanBitWriter w) {
        super(w);
    }

    @Override
    void step(boolean sync) throws IOException {
        if (windowEnd < window.length) {
            if (!sync) {
                return;
            }
            // A flush of little data: too short for the match finder to pay off.
            if (windowEnd < 128) {
                if (windowEnd == 0) {
                    return;
                }
                if (windowEnd <= 16) {
                    w.writeStoredBlock(window, 0, windowEnd);
                } else {
                    w.writeBlockHuff(false, window, 0, windowEnd);
                }
                windowEnd = 0;
                bestSpeed.reset();
                return;
            }
        }
        int count = bestSpeed.encode(tokens, window, windowEnd);
        // Huffman-only when matching removed less than 1/16th.
        if (count > windowEnd - (windowEnd >> 4)) {
            w.writeBlockHuff(false, window, 0, windowEnd);
        } else {
            w.writeBlockDynamic(tokens, count, false, window, 0, windowEnd);
        }
        windowEnd = 0;
    }

    /** Runs the match finder over a full block of {@code b} as {@link #step} would, writing nothing: a warm-up. */
    void warmUp(byte[] b, int offset) {
        System.arraycopy(b, offset, window, 0, window.length);
        bestSpeed.encode(tokens, window, window.length);
    }

    /** Whether the next block is encoded as {@code other}'s: see {@link DeflateFast#sameMatchState}. */
    boolean sameMatchState(BestSpeedCompressor other) {
        return windowEnd == other.windowEnd && bestSpeed.sameMatchState(other.bestSpeed);
    }

    @Override
    void reset() {
        super.reset();
        bestSpeed.reset();
    }
}
