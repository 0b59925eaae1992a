package dev.layerfold.dedup.codec.zstd.klauspost;

/**
 * The proof's view of one piece's match tables (docs/design.md, "zstd frames: restart points"). A
 * piece's encoder comes from a warm-up, as a restore's does, but encodes with the Writer's tables at
 * its point, each entry the warm-up left otherwise marked {@link MatchTable#UNREAD}, the warm-up's
 * kept aside. At the first read of a marked slot, if the warm-up's entry would be matched otherwise
 * than the Writer's, the patch records the Writer's and the slot is unmarked; a read where neither
 * matches leaves it marked (their difference decided nothing yet), so that only the slots whose
 * difference decided something are carried. A write unmarks a slot by itself. Every read so returns
 * the Writer's entry, the piece follows the Writer's path, and its tables are the Writer's at its end,
 * handed on to the next piece without a copy. A restore writing the patch into the warm-up's tables
 * before the segment makes the same reads: a patched slot's first access is a read. Whether it all
 * held is proven by the layer's digest, not by this reasoning.
 *
 * <p>A bucket ({@link MatchTable#ofBuckets}) is marked in its newest position, where the warm-up's
 * holds another position in reach than the Writer's (either of its two). Its first access may be a
 * push, after which the piece's previous position is the Writer's newest and an unpatched restore's the
 * warm-up's: unless those are alike it stays marked (its newest, from the point on, tells it was
 * pushed), so that a later read can still decide; a second push leaves both alike, and unmarks it. A
 * read so decided patches the bucket as the Writer's was at the point, what a restore writes before
 * its segment.
 */
final class SlotPatcher {

    /**
     * Flags a marked bucket whose warm-up's holds a position, in its previous position's bit 31: where
     * the warm-up left none (most buckets, 2^19 against a 256 KiB warm-up) its copy need not be loaded.
     */
    private static final long WARMED = MatchTable.UNREAD << 32;

    private final MatchTable[] tables;
    /** What the piece's warm-up left in each table, where a restore starts from. */
    private final long[][] warm;
    private final SlotPatch.Builder patch;
    private final MatchWindow window;
    private final int maxMatchOffset;

    /**
     * Puts the Writer's tables in {@code finder}, whose warm-up just ran, marking the slots where the
     * warm-up left another entry.
     *
     * @param writers the Writer's tables at the point, as {@link #writersTables} or {@link #takeTables} gives them; the finder's from now on
     */
    SlotPatcher(MatchFinder finder, long[][] writers) {
        tables = finder.tables();
        if (tables.length != writers.length) {
            throw new IllegalArgumentException("a piece's match finder has " + tables.length + " tables, the Writer's " + writers.length);
        }
        warm = new long[tables.length][];
        patch = new SlotPatch.Builder(finder.window);
        window = finder.window;
        maxMatchOffset = finder.window.maxMatchOffset;
        for (MatchTable table : tables) {
            long[] entries = writers[table.index];
            long[] warmUp = table.replaceEntries(entries);
            for (int slot = 0; slot < entries.length; slot++) {
                if (!table.buckets && entries[slot] != warmUp[slot]) {
                    entries[slot] |= MatchTable.UNREAD;
                } else if (table.buckets && !sameBucket(entries[slot], warmUp[slot])) {
                    entries[slot] |= MatchTable.UNREAD | (warmUp[slot] == 0 ? 0 : WARMED);
                }
            }
            warm[table.index] = warmUp;
            table.patcher = this;
        }
    }

    /**
     * The Writer's tables as the piece leaves them, taken from its finder, which encodes no more, and
     * unmarked; the patcher stops watching them.
     */
    long[][] writersTables() {
        long[][] writers = new long[tables.length][];
        for (MatchTable table : tables) {
            table.patcher = null;
            long[] entries = table.replaceEntries(new long[table.slots()]);
            long marks = table.buckets ? MatchTable.UNREAD | WARMED : MatchTable.UNREAD;
            for (int slot = 0; slot < entries.length; slot++) {
                entries[slot] &= ~marks;
            }
            writers[table.index] = entries;
        }
        return writers;
    }

    /** The tables of {@code finder}, which encodes no more: the Writer's, where it is the Writer's own (a frame's first piece, which needs no patcher). */
    static long[][] takeTables(MatchFinder finder) {
        MatchTable[] tables = finder.tables();
        long[][] taken = new long[tables.length][];
        for (MatchTable table : tables) {
            taken[table.index] = table.replaceEntries(new long[table.slots()]);
        }
        return taken;
    }

    /** The slots patched so far, and {@code entropyState} (empty: none). */
    byte[] patch(byte[] entropyState) {
        return patch.encode(entropyState, tables);
    }

    /**
     * The first read of a marked slot, to be matched against {@code value} at {@code at}: patched, and
     * unmarked, where the warm-up's entry would be matched otherwise than the Writer's. Returns the
     * entry the read gets: the Writer's, or what a restore's patch writes in its place (an empty entry
     * for one out of reach).
     */
    long firstRead(MatchTable table, int slot, int value, int at) {
        long writers = table.entry(slot) & ~MatchTable.UNREAD;
        if (!matches(warm[table.index][slot], value, at) && !matches(writers, value, at)) {
            return writers;
        }
        long patched = patch.add(table.index, slot, writers);
        table.setEntry(slot, patched);
        return patched;
    }

    private boolean matches(long entry, int value, int at) {
        return at - MatchTable.offset(entry) < maxMatchOffset && MatchTable.value(entry) == value;
    }

    /**
     * The first read of a marked bucket that may decide something, by {@link MatchTable#bucket}'s
     * test: patched, and unmarked, where the positions of the warm-up's bucket and of the Writer's that
     * pass it differ (which passes, or in which place). Returns the Writer's bucket, which a restore's
     * patch makes its own.
     */
    long firstBucketRead(MatchTable table, int slot, int value, int at, int shift) {
        long marked = table.entry(slot);
        long writers = marked & ~(MatchTable.UNREAD | WARMED);
        long warmAtPoint = (marked & WARMED) == 0 ? 0 : warm[table.index][slot];
        // Pushed since the point (once: a second push unmarks), both buckets' newest there is their previous now.
        boolean pushed = MatchTable.offset(writers) >= patch.point();
        long warmUp = pushed ? MatchTable.entry(MatchTable.offset(writers), MatchTable.offset(warmAtPoint)) : warmAtPoint;
        if (passing(MatchTable.offset(writers), value, at, shift) == passing(MatchTable.offset(warmUp), value, at, shift)
                && passing(MatchTable.previous(writers), value, at, shift) == passing(MatchTable.previous(warmUp), value, at, shift)) {
            return writers;
        }
        if (pushed) {
            // The Writer's previous at the point is gone; the warm-up's passed every read before the push as it did.
            patch.addBucket(table.index, slot, MatchTable.previous(writers), MatchTable.previous(warmAtPoint));
        } else {
            patch.addBucket(table.index, slot, MatchTable.offset(writers), MatchTable.previous(writers));
        }
        table.setEntry(slot, writers);
        return writers;
    }

    /**
     * A push on a marked bucket: unmarked where the warm-up's newest so far, becoming its previous,
     * is the Writer's, or where it is its second since the point (both buckets then hold the same two).
     */
    void markedPush(MatchTable table, int slot, int position) {
        long marked = table.entry(slot);
        int writersNewest = MatchTable.offset(marked & ~MatchTable.UNREAD);
        long pushed = MatchTable.entry(position, writersNewest);
        if (writersNewest >= patch.point() || patch.distance(writersNewest) == patch.distance(warmNewest(table, slot, marked))) {
            table.setEntry(slot, pushed);
        } else {
            table.setEntry(slot, pushed | MatchTable.UNREAD | marked & WARMED);
        }
    }

    private int warmNewest(MatchTable table, int slot, long marked) {
        return (marked & WARMED) == 0 ? 0 : MatchTable.offset(warm[table.index][slot]);
    }

    /** Whether two buckets hold the same positions in reach from the point on. */
    private boolean sameBucket(long a, long b) {
        return patch.distance(MatchTable.offset(a)) == patch.distance(MatchTable.offset(b))
                && patch.distance(MatchTable.previous(a)) == patch.distance(MatchTable.previous(b));
    }

    /**
     * {@code position} if the 4 bytes at {@code position - shift} (plus cur), before {@code at} and in its reach, are
     * {@code value}, else -1.
     */
    private int passing(int position, int value, int at, int shift) {
        int tested = position - shift;
        int in = tested - window.cur;
        return at - tested < maxMatchOffset && at > tested && in >= 0 && Bytes.load32(window.bytes, in) == value ? position : -1;
    }
}
