package dev.layerfold.dedup.codec.zstd.klauspost;

import java.util.Arrays;

/**
 * A match finder's hash table as Go lays it out ({@code []tableEntry{val, offset}}): each slot holds a
 * position (plus {@link MatchWindow#cur}) and the 4 bytes found there side by side, so that a lookup
 * costs one cache miss, not one per array as with an array of positions beside an array of values.
 * An entry is a long: the position in its low 32 bits, the value in its high 32. A table of
 * buckets ({@code []prevEntry{offset, prev}}, SpeedBetterCompression's) holds the slot's newest
 * position and the one it replaced instead ({@link #bucket}, {@link #push}).
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
    /** Whether its slots are buckets of two positions rather than a position beside its 4 bytes. */
    final boolean buckets;

    MatchTable(int bits, int index) {
        this(bits, index, false);
    }

    private MatchTable(int bits, int index, boolean buckets) {
        entries = new long[1 << bits];
        this.index = index;
        this.buckets = buckets;
    }

    /** A table whose slots keep their newest position (marked as an entry's is) and the one before it. */
    static MatchTable ofBuckets(int bits, int index) {
        return new MatchTable(bits, index, true);
    }

    /**
     * The entry in slot {@code hash}, read to be matched against {@code value}, the 4 bytes at
     * {@code at} (a position plus {@link MatchWindow#cur}): read both halves with {@link #offset} and {@link #value}.
     */
    long get(int hash, int value, int at) {
        long entry = entries[hash];
        return (entry & UNREAD) == 0 ? entry : patcher.firstRead(this, hash, value, at);
    }

    /**
     * The bucket in slot {@code hash}, read so that a position {@code p} in it matters only where the
     * 4 bytes at {@code p - shift} are {@code value}, those at {@code at} (a position plus
     * {@link MatchWindow#cur}), and {@code p - shift} lies before {@code at} and in its reach: read its
     * newest position with {@link #offset}, the one before with {@link #previous}.
     */
    long bucket(int hash, int value, int at, int shift) {
        long bucket = entries[hash];
        return (bucket & UNREAD) == 0 ? bucket : patcher.firstBucketRead(this, hash, value, at, shift);
    }

    /** Files {@code position} as slot {@code hash}'s newest, its newest so far becoming its previous. */
    void push(int hash, int position) {
        long bucket = entries[hash];
        if ((bucket & UNREAD) == 0) {
            entries[hash] = pushed(bucket, position);
        } else {
            patcher.markedPush(this, hash, position);
        }
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

    /**
     * {@code bucket} with {@code position} as its newest, its newest before as the one before: a push
     * on a bucket held outside a table too ({@link BestMatcher}'s arrays).
     */
    static long pushed(long bucket, int position) {
        return bucket << 32 | position & 0xFFFFFFFFL;
    }

    /** A bucket's position before its newest. */
    static int previous(long bucket) {
        return (int) (bucket >>> 32);
    }

    void put(int hash, int offset, int value) {
        entries[hash] = entry(offset, value);
    }

    void clear() {
        Arrays.fill(entries, 0);
    }

    /**
     * Moves each slot's position by {@link MatchWindow#rebased}, its value kept; a bucket's previous
     * position is emptied with its newest, as Go's rebase does.
     */
    void rebase(MatchWindow window, int minOffset) {
        for (int i = 0; i < entries.length; i++) {
            long entry = entries[i];
            entries[i] = buckets ? window.rebasedBucket(entry, minOffset) : entry(window.rebased(offset(entry), minOffset), value(entry));
        }
    }
}
