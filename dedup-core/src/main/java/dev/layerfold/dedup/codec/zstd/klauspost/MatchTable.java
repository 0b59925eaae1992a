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
    /**
     * Null but while a restart point's proof encodes a piece ({@link SlotPatcher}): it then sees every
     * access first, so that normal encoding pays one null check per access.
     */
    SlotPatcher patcher;
    /** Which of its match finder's tables this is ({@link MatchFinder#tables}): how a patch names it. */
    final int index;

    MatchTable(int bits, int index) {
        entries = new long[1 << bits];
        this.index = index;
    }

    /**
     * The entry in slot {@code hash}, read to be matched against {@code value}, the 4 bytes at
     * {@code at} (a position plus {@link MatchWindow#cur}): read both halves with {@link #offset} and {@link #value}.
     */
    long get(int hash, int value, int at) {
        if (patcher != null) {
            patcher.beforeRead(this, hash, value, at);
        }
        return entries[hash];
    }

    int slots() {
        return entries.length;
    }

    /** The entry in a slot, unseen by a patcher. */
    long entry(int slot) {
        return entries[slot];
    }

    /** Sets a slot's entry (a patch), unseen by a patcher. */
    void setEntry(int slot, long entry) {
        entries[slot] = entry;
    }

    static long entry(int offset, int value) {
        return (offset & 0xFFFFFFFFL) | (long) value << 32;
    }

    static int offset(long entry) {
        return (int) entry;
    }

    static int value(long entry) {
        return (int) (entry >>> 32);
    }

    void put(int hash, int offset, int value) {
        entries[hash] = entry(offset, value);
        if (patcher != null) {
            patcher.written(this, hash);
        }
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
