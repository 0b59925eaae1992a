package dev.layerfold.dedup.codec.identify;

import dev.layerfold.dedup.codec.deflate.TokenObserver;
import dev.layerfold.dedup.codec.family.FirstBlock;

/**
 * Checks a candidate's tokens against the symbols of the original's first block, stopping the
 * candidate's encoder at the first that differs: a wrong level or family then costs the few
 * hundred tokens until its match finder first chooses otherwise, not a block of compression.
 * Tokens past the first block are not checked (the output comparison covers everything).
 */
final class FirstTokens implements TokenObserver {

    /** Thrown out of the encoder's token loop; carries no stack trace. */
    static final class Differ extends RuntimeException {
        Differ() {
            super("candidate's tokens differ from the original's first block", null, false, false);
        }
    }

    private static final Differ DIFFER = new Differ();

    private final int[] expected;
    private int next;

    FirstTokens(int[] expected) {
        this.expected = expected;
    }

    @Override
    public void literal(int value) {
        check(value);
    }

    @Override
    public void match(int length, int distance) {
        check(FirstBlock.matchToken(length, distance));
    }

    private void check(int token) {
        if (next < expected.length) {
            if (expected[next] != token) {
                throw DIFFER;
            }
            next++;
        }
    }
}
