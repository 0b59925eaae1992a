package dev.layerfold.dedup.codec.zstd.klauspost;

import dev.layerfold.dedup.codec.recipe.Varints;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;

/**
 * A restart point's patch: the match-table slots its segment first reads and would match otherwise
 * than in the Writer's tables, after the point's warm-up ({@link SlotPatcher}). Each names the
 * position the Writer's slot held, as its distance back from the point (0: none in reach, an empty
 * slot); the 4 bytes an entry holds beside its position are those at the position, which the
 * history before the point holds. Where the warm-up leaves another entropy state than the Writer's
 * (its own matches make other Huffman codes and sequence tables), the patch carries the Writer's
 * ({@link BlockWriter#state}). A slot of a table of buckets ({@link MatchTable#ofBuckets}) names both
 * its positions, its newest and the one before. Coded as the entropy state's length (a varint, 0: none)
 * and bytes, then per table the count of slots as a varint, then each slot as its distance from the
 * previous one and its distance back (for a bucket the newest's, then the previous one's), varints,
 * slots ascending; a patch of neither as no bytes.
 */
final class SlotPatch {

    /** The most bytes an entropy state takes: a Huffman code of 256 symbols and three sequence tables. */
    static final int MAX_ENTROPY_STATE = 2 + 1 + 3 * 256 + 3 * (2 + 2 * 256);

    private SlotPatch() {
    }

    /** The patch of a piece under way, its slots in the order they were patched. */
    static final class Builder {
        private final MatchWindow window;
        /** The point's position plus {@code cur}: its coordinate. */
        private final int point;
        /** Entries at or below this are out of reach of every position from the point on. */
        private final int reach;
        /** Per slot patched, its table, slot and index in {@link #distances}, in the order patched. */
        private long[] slots = new long[1024];
        private int[] distances = new int[1024];
        /** A bucket's previous position's distance back, where {@link #distances} holds its newest's. */
        private int[] previousDistances = new int[1024];
        private int count;

        Builder(MatchWindow window) {
            this.window = window;
            this.point = window.cur + window.length;
            this.reach = point - window.maxMatchOffset;
        }

        /** The point's coordinate: positions pushed since lie at or past it. */
        int point() {
            return point;
        }

        /** How far back of the point {@code offset} (a position plus {@code cur}) lies: 0 if it is out of reach from the point on. */
        int distance(int offset) {
            return offset <= reach ? 0 : point - offset;
        }

        /** Records that bucket {@code slot} of table {@code table} held {@code newest} and {@code previous} in the Writer's table at the point. */
        void addBucket(int table, int slot, int newest, int previous) {
            record(table, slot, distance(newest));
            previousDistances[count - 1] = distance(previous);
        }

        private void record(int table, int slot, int distance) {
            if (count == slots.length) {
                slots = Arrays.copyOf(slots, 2 * count);
                distances = Arrays.copyOf(distances, 2 * count);
                previousDistances = Arrays.copyOf(previousDistances, 2 * count);
            }
            slots[count] = (long) table << 56 | (long) slot << 24 | count;
            distances[count++] = distance;
        }

        /** Records that {@code slot} of table {@code table} gets the Writer's {@code entry}; returns what a restore writes there. */
        long add(int table, int slot, long writers) {
            int offset = MatchTable.offset(writers);
            int distance = distance(offset);
            record(table, slot, distance);
            if (distance == 0) {
                return 0;
            }
            int at = offset - window.cur;
            // Where the segment's blocks already pushed the position out of the buffer it is out of reach of this read and all later ones.
            if (at < 0) {
                return writers;
            }
            long rebuilt = MatchTable.entry(offset, Bytes.load32(window.bytes, at));
            if (rebuilt != writers) {
                throw new IllegalStateException("the Writer's slot holds position " + offset + " with other bytes than those there");
            }
            return rebuilt;
        }

        /** @param entropyState the Writer's entropy state where the warm-up left another, or empty */
        byte[] encode(byte[] entropyState, MatchTable[] tables) {
            if (count == 0 && entropyState.length == 0) {
                return new byte[0];
            }
            long[] sorted = Arrays.copyOf(slots, count);
            Arrays.sort(sorted);
            ByteArrayOutputStream out = new ByteArrayOutputStream(2 * count + tables.length);
            try {
                Varints.write(out, entropyState.length);
                out.write(entropyState);
                int i = 0;
                for (int table = 0; table < tables.length; table++) {
                    int start = i;
                    while (i < sorted.length && sorted[i] >>> 56 == table) {
                        i++;
                    }
                    Varints.write(out, i - start);
                    int previous = -1;
                    for (int j = start; j < i; j++) {
                        int slot = (int) (sorted[j] >>> 24 & 0xFFFFFFFFL);
                        Varints.write(out, slot - previous - 1);
                        int record = (int) (sorted[j] & 0xFFFFFF);
                        Varints.write(out, distances[record]);
                        if (tables[table].buckets) {
                            Varints.write(out, previousDistances[record]);
                        }
                        previous = slot;
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return out.toByteArray();
        }
    }

    /**
     * Writes {@code patch} into the tables of {@code finder}, whose window holds the history before the
     * point and whose tables its warm-up left, and its entropy state, if any, into {@code blocks}.
     *
     * @throws IllegalArgumentException if the patch names a slot or position the finder has not, or no entropy state (a damaged recipe)
     */
    static void apply(byte[] patch, MatchFinder finder, BlockWriter blocks) {
        if (patch.length == 0) {
            return;
        }
        MatchWindow window = finder.window;
        int point = window.cur + window.length;
        ByteArrayInputStream in = new ByteArrayInputStream(patch);
        try {
            byte[] entropyState = in.readNBytes(Varints.readInt(in, MAX_ENTROPY_STATE, "entropy state length"));
            if (entropyState.length > 0) {
                blocks.setState(entropyState);
            }
            for (MatchTable table : finder.tables()) {
                int count = Varints.readInt(in, table.slots(), "patched slots");
                int slot = -1;
                for (int i = 0; i < count; i++) {
                    slot += 1 + Varints.readInt(in, table.slots(), "patched slot");
                    int distance = patchedDistance(in, window, slot, table);
                    if (table.buckets) {
                        int previous = patchedDistance(in, window, slot, table);
                        table.setEntry(slot, MatchTable.entry(distance == 0 ? 0 : point - distance, previous == 0 ? 0 : point - previous));
                        continue;
                    }
                    if (distance > 0 && distance < 4) {
                        throw new IllegalArgumentException("a patch names a position " + distance + " bytes back of the point, whose 4 bytes reach past it");
                    }
                    int offset = point - distance;
                    table.setEntry(slot, distance == 0 ? 0 : MatchTable.entry(offset, Bytes.load32(window.bytes, offset - window.cur)));
                }
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("a patch is cut short: " + e.getMessage(), e);
        }
        if (in.available() > 0) {
            throw new IllegalArgumentException("a patch has " + in.available() + " bytes past its slots");
        }
    }

    private static int patchedDistance(ByteArrayInputStream in, MatchWindow window, int slot, MatchTable table) throws IOException {
        int distance = Varints.readInt(in, window.maxMatchOffset, "patched position");
        if (slot >= table.slots() || distance > window.length) {
            throw new IllegalArgumentException("a patch names slot " + slot + " of " + table.slots() + ", " + distance
                    + " bytes back of the " + window.length + " before the point");
        }
        return distance;
    }
}
