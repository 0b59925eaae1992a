package dev.layerfold.dedup.codec.zstd.klauspost;

import java.util.Arrays;

/**
 * A match finder's hash table as Go lays it out ({@code []tableEntry{val, offset}}): each slot holds a
 * position (plus {@link MatchWindow#cur}) and the 4 bytes found there side by side, so that a lookup
 * costs one cache miss, not one per array as with an array of positions beside an array of values.
 * An entry is a long: the position in its low 32 bits, the value in its high 32.
 */
final class MatchTable {

    /**
     * Marks an entry a restart point's proof has yet to see read ({@link SlotPatcher}): bit 31 of its
     * position, which no position reaches (a window's {@code cur} stays below 2^31), so that normal
     * encoding pays only a test of the entry it loaded, and a piece only each slot's first read.
     */
    static final long UNREAD = 1L << 31;

    private long[] entries;
    /** Null but while a restart point's proof encodes a piece: the one to ask at a read of an {@link #UNREAD} entry. */
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
        long entry = entries[hash];
        return (entry & UNREAD) == 0 ? entry : patcher.firstRead(this, hash, value, at);
    }

    int slots() {
        return entries.length;
    }

    /** The entry in a slot, unseen by a patcher. */
    long entry(int slot) {
        return entries[slot];
    }

    /**
     * Puts {@code replacement} in place of its entries, which it returns: how a proof's piece takes
     * over the Writer's tables and hands them on ({@link SlotPatcher}).
     */
    long[] replaceEntries(long[] replacement) {
        if (replacement.length != entries.length) {
            throw new IllegalArgumentException("a table of " + entries.length + " slots cannot take " + replacement.length);
        }
        long[] replaced = entries;
        entries = replacement;
        return replaced;
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
