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
 * position the Writer's slot held, as its distance back from where the patch is written (0: none in reach, an empty
 * slot); the 4 bytes an entry holds beside its position are those at the position, which the
 * history before the point holds. A patch is written into the tables some blocks before its point
 * (the lead), so that the last blocks of the warm-up follow the Writer's path too and leave its
 * entropy state. Coded as varints: the lead in blocks, then per table the count of slots, then each
 * slot as its distance from the previous one and its distance back, slots ascending; a patch of no
 * slots and no lead as no bytes.
 */
final class SlotPatch {

    /** The most blocks a proof lets a patch lead its point by. */
    static final int MAX_LEAD = 16;

    private SlotPatch() {
    }

    /** The patch of a piece under way, its slots in the order they were patched. */
    static final class Builder {
        private final MatchWindow window;
        /** The position where the patch is written plus {@code cur}: its coordinate. */
        private final int point;
        /** Entries at or below this are out of reach of every position from there on. */
        private final int reach;
        private long[] slots = new long[1024];
        private int count;

        Builder(MatchWindow window) {
            this.window = window;
            this.point = window.cur + window.length;
            this.reach = point - window.maxMatchOffset;
        }

        /** Records that {@code slot} of table {@code table} gets the Writer's {@code entry}; returns what a restore writes there. */
        long add(int table, int slot, long writers) {
            int offset = MatchTable.offset(writers);
            int distance = offset <= reach ? 0 : point - offset;
            if (count == slots.length) {
                slots = Arrays.copyOf(slots, 2 * count);
            }
            slots[count++] = (long) table << 56 | (long) slot << 24 | distance;
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

        byte[] encode(int lead, int tables) {
            if (count == 0 && lead == 0) {
                return new byte[0];
            }
            long[] sorted = Arrays.copyOf(slots, count);
            Arrays.sort(sorted);
            ByteArrayOutputStream out = new ByteArrayOutputStream(2 * count + tables);
            try {
                Varints.write(out, lead);
                int i = 0;
                for (int table = 0; table < tables; table++) {
                    int start = i;
                    while (i < sorted.length && sorted[i] >>> 56 == table) {
                        i++;
                    }
                    Varints.write(out, i - start);
                    int previous = -1;
                    for (int j = start; j < i; j++) {
                        int slot = (int) (sorted[j] >>> 24 & 0xFFFFFFFFL);
                        Varints.write(out, slot - previous - 1);
                        Varints.write(out, sorted[j] & 0xFFFFFF);
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
     * How many blocks before its point {@code patch} is written into the tables.
     *
     * @throws IllegalArgumentException if it does not start with a lead (a damaged recipe)
     */
    static int lead(byte[] patch) {
        if (patch.length == 0) {
            return 0;
        }
        try {
            return Varints.readInt(new ByteArrayInputStream(patch), MAX_LEAD, "patch lead");
        } catch (IOException e) {
            throw new IllegalArgumentException("a patch's lead: " + e.getMessage(), e);
        }
    }

    /**
     * Writes {@code patch} into the tables of {@code finder}, whose window holds the history before the
     * patch's place ({@link #lead} blocks before the point) and whose tables its warm-up left.
     *
     * @throws IllegalArgumentException if the patch names a slot or position the finder has not (a damaged recipe)
     */
    static void apply(byte[] patch, MatchFinder finder) {
        if (patch.length == 0) {
            return;
        }
        MatchWindow window = finder.window;
        int point = window.cur + window.length;
        ByteArrayInputStream in = new ByteArrayInputStream(patch);
        try {
            Varints.read(in);
            for (MatchTable table : finder.tables()) {
                int count = Varints.readInt(in, table.slots(), "patched slots");
                int slot = -1;
                for (int i = 0; i < count; i++) {
                    slot += 1 + Varints.readInt(in, table.slots(), "patched slot");
                    int distance = Varints.readInt(in, window.maxMatchOffset, "patched position");
                    if (slot >= table.slots() || distance > window.length || distance > 0 && distance < 4) {
                        throw new IllegalArgumentException("a patch names slot " + slot + " of " + table.slots() + ", " + distance
                                + " bytes back of the " + window.length + " before the point");
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
}
