package dev.layerfold.dedup.codec.zstd.klauspost;

/**
 * The proof's view of one piece's match tables (docs/design.md, "zstd frames: restart points"): a
 * copy of the Writer's tables at the piece's point, and each slot's first access. The piece starts
 * from a warm-up's tables; where a slot is first read, and the warm-up left another entry there than
 * the Writer's that the read would match otherwise, the patcher puts the Writer's there and records
 * it in the piece's patch. Every read then returns the Writer's entry, so the piece follows the
 * Writer's path and makes its writes: its tables then hold the Writer's entries in every slot it
 * accessed, the copy in the others. A restore writing the patch into the warm-up's tables before the
 * piece gets the same reads: a patched slot's first access is a read. Whether it all held is proven
 * by the layer's digest, not by this reasoning.
 */
final class SlotPatcher {

    private final long[][] reference;
    private final boolean[][] accessed;
    private MatchTable[] tables;
    private final SlotPatch.Builder patch;
    private final int maxMatchOffset;

    /**
     * Watches {@code finder}'s tables, which a warm-up left, from here on.
     *
     * @param writers the Writer's tables here, as {@link #writersTables} gives them; owned by this patcher from now on
     */
    SlotPatcher(MatchFinder finder, long[][] writers) {
        tables = finder.tables();
        if (tables.length != writers.length) {
            throw new IllegalArgumentException("a piece's match finder has " + tables.length + " tables, the Writer's " + writers.length);
        }
        reference = writers;
        accessed = new boolean[tables.length][];
        for (MatchTable table : tables) {
            accessed[table.index] = new boolean[table.slots()];
            table.patcher = this;
        }
        patch = new SlotPatch.Builder(finder.window);
        maxMatchOffset = finder.window.maxMatchOffset;
    }

    /** A copy of the Writer's tables as they are now: the piece's entries where it accessed a slot, else the copy's. */
    long[][] writersTables() {
        long[][] copy = new long[reference.length][];
        for (MatchTable table : tables) {
            long[] writers = reference[table.index].clone();
            boolean[] seen = accessed[table.index];
            for (int slot = 0; slot < writers.length; slot++) {
                if (seen[slot]) {
                    writers[slot] = table.entry(slot);
                }
            }
            copy[table.index] = writers;
        }
        return copy;
    }

    /** A copy of {@code finder}'s tables: the Writer's, where it is the Writer's own (a frame's first piece, which needs no patcher). */
    static long[][] tablesOf(MatchFinder finder) {
        MatchTable[] tables = finder.tables();
        long[][] copy = new long[tables.length][];
        for (MatchTable table : tables) {
            copy[table.index] = new long[table.slots()];
            for (int slot = 0; slot < table.slots(); slot++) {
                copy[table.index][slot] = table.entry(slot);
            }
        }
        return copy;
    }

    /** The slots patched so far, and {@code entropyState} (empty: none). */
    byte[] patch(byte[] entropyState) {
        return patch.encode(entropyState, reference.length);
    }

    /** Stops watching the tables (the piece ended). */
    void detach() {
        for (MatchTable table : tables) {
            table.patcher = null;
        }
        tables = new MatchTable[0];
    }

    /**
     * A slot read to be matched against {@code value} at {@code at}: patched if it was not accessed
     * yet and the warm-up's entry would be matched otherwise than the Writer's. A read where neither
     * matches leaves it unpatched (the entries differ in a way no search saw yet), so that only the
     * slots whose difference decided something are carried.
     */
    void beforeRead(MatchTable table, int slot, int value, int at) {
        boolean[] seen = accessed[table.index];
        if (seen[slot]) {
            return;
        }
        long writers = reference[table.index][slot];
        long warm = table.entry(slot);
        if (warm != writers && !matches(warm, value, at) && !matches(writers, value, at)) {
            return;
        }
        seen[slot] = true;
        if (warm != writers) {
            table.setEntry(slot, patch.add(table.index, slot, writers));
        }
    }

    private boolean matches(long entry, int value, int at) {
        return at - MatchTable.offset(entry) < maxMatchOffset && MatchTable.value(entry) == value;
    }

    void written(MatchTable table, int slot) {
        accessed[table.index][slot] = true;
    }
}
