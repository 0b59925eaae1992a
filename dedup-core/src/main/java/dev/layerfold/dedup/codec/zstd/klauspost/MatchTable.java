package dev.layerfold.dedup.codec.zstd.klauspost;

import java.util.Arrays;

/**
 * A match finder's hash table as Go lays it out ({@code []tableEntry{val, offset}}): each slot holds a
 * position (plus {@link MatchWindow#cur}) and the 4 bytes found there side by side, so that a lookup
 * costs one cache miss, not one per array as with an array of positions beside an array of values.
 * An entry is a long: the position in its low 32 bits, the value in its high 32.
 */
final class MatchTable {

    private final long[] entries;

    MatchTable(int bits) {
        entries = new long[1 << bits];
    }

    /** The entry in slot {@code hash}: read both halves with {@link #offset} and {@link #value}. */
    long get(int hash) {
        return entries[hash];
    }

    static int offset(long entry) {
        return (int) entry;
    }

    static int value(long entry) {
        return (int) (entry >>> 32);
    }

    void put(int hash, int offset, int value) {
        entries[hash] = (offset & 0xFFFFFFFFL) | (long) value << 32;
    }

    void clear() {
        Arrays.fill(entries, 0);
    }

    /** Moves each slot's position by {@link MatchWindow#rebased}, its value kept. */
    void rebase(MatchWindow window, int minOffset) {
        for (int i = 0; i < entries.length; i++) {
            long entry = entries[i];
            entries[i] = (window.rebased(offset(entry), minOffset) & 0xFFFFFFFFL) | (entry & 0xFFFFFFFF00000000L);
        }
    }
}
