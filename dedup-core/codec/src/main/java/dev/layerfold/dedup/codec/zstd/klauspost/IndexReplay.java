package dev.layerfold.dedup.codec.zstd.klauspost;

import dev.layerfold.dedup.codec.recipe.Varints;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;

/**
 * A SpeedBestCompression restart point's record: which positions of the window before the point the
 * Writer indexed, from which a restore replays its match tables ({@link BestMatcher}), and the Writer's
 * entropy state there. The Writer indexes nearly every position, in ascending order, and a bucket
 * holds the last two positions indexed into it, so tables replayed from empty by indexing the same
 * positions in the same order hold the Writer's positions wherever they are in reach; older ones,
 * which the replay leaves empty, no search can take (docs/design.md). What the input alone does not
 * tell is which positions were left out: those of literal runs past 512 bytes, where searches thin
 * out ({@link BestMatcher#nextSearch}), and those at each block's end. The record names them as
 * items, ascending, every other position of the window being indexed: a <em>gap</em>, a range
 * indexed nowhere, and a <em>run</em>, a range where only the searches of a literal run starting at
 * its first position were.
 *
 * <p>Coded as the entropy state's length (a varint, never 0) and bytes ({@link BlockWriter#state}),
 * the count of items (a varint), then per item its start less the previous item's end (the first:
 * less the window's first position), times 2, plus 1 for a run, and its length, varints.
 */
final class IndexReplay {

    private static final long GAP = 0;
    private static final long RUN = 1;

    private IndexReplay() {
    }

    /**
     * Watches a frame's indexing ({@link BestMatcher.IndexObserver}), piece after piece, and gives each
     * point the record of the window before it. Items are kept as content positions, each packed as
     * start, end and kind.
     */
    static final class Recorder implements BestMatcher.IndexObserver {

        private final int windowSize;
        private long[] items = new long[1024];
        private int count;
        /** The next position indexed if every position is. */
        private int expected;
        private int lastSearch = -1;
        /** The literal run whose thinned-out searches are under way, or -1. */
        private int runStart = -1;
        /** Where the last indexing the record cannot tell (out of order, repeated) happened, or -1. */
        private int unrepresentable = -1;

        Recorder(int windowSize) {
            this.windowSize = windowSize;
        }

        @Override
        public void searched(int nextEmit, int s) {
            boolean thinning = lastSearch >= nextEmit && expected == lastSearch + 1 && s == BestMatcher.nextSearch(lastSearch, nextEmit) && s != expected;
            if (!thinning) {
                endRun();
            }
            if (s < expected) {
                unrepresentable = expected;
            } else if (thinning) {
                if (runStart < 0) {
                    runStart = nextEmit;
                    if (count > 0 && end(items[count - 1]) > nextEmit) {
                        unrepresentable = s;
                    }
                }
            } else if (s > expected) {
                add(expected, s, GAP);
            }
            expected = Math.max(expected, s + 1);
            lastSearch = s;
        }

        @Override
        public void indexed(int from, int to) {
            endRun();
            if (to <= from) {
                return;
            }
            if (from != expected) {
                unrepresentable = Math.max(expected, to);
            }
            expected = Math.max(expected, to);
        }

        private void endRun() {
            if (runStart >= 0) {
                add(runStart, lastSearch + 1, RUN);
                runStart = -1;
            }
        }

        private void add(int start, int end, long kind) {
            if (count == items.length) {
                items = Arrays.copyOf(items, 2 * count);
            }
            items[count++] = (long) start << 32 | (long) end << 1 | kind;
        }

        private static int start(long item) {
            return (int) (item >>> 32);
        }

        private static int end(long item) {
            return (int) (item >>> 1 & 0x7FFFFFFF);
        }

        /**
         * The record of the point at {@code point}, a block boundary up to which every block was
         * indexed, or null if an indexing within its window cannot be told; drops what no later point needs.
         *
         * @param entropyState the Writer's entropy state at the point
         */
        byte[] record(int point, byte[] entropyState) {
            endRun();
            if (expected < point) {
                add(expected, point, GAP);
                expected = point;
            }
            int first = Math.max(0, point - windowSize);
            int dropped = 0;
            while (dropped < count && end(items[dropped]) <= first) {
                dropped++;
            }
            System.arraycopy(items, dropped, items, 0, count - dropped);
            count -= dropped;
            if (unrepresentable >= first) {
                return null;
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream(16 + entropyState.length + 4 * count);
            try {
                Varints.write(out, entropyState.length);
                out.write(entropyState);
                Varints.write(out, count);
                int cursor = first;
                for (int i = 0; i < count; i++) {
                    if ((items[i] & 1) == RUN && start(items[i]) < first) {
                        // A run is within a block, and the window starts on one: never so.
                        return null;
                    }
                    int start = Math.max(first, start(items[i]));
                    int end = end(items[i]);
                    if (start < cursor) {
                        return null;
                    }
                    Varints.write(out, (long) (start - cursor) << 1 | items[i] & 1);
                    Varints.write(out, end - start);
                    cursor = end;
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return out.toByteArray();
        }
    }

    /**
     * Replays {@code record} into {@code finder}, whose window holds the history before the point and
     * whose tables are empty, and sets its entropy state into {@code blocks}.
     *
     * @throws IllegalArgumentException if the record names positions the history has not, items out of order, or no entropy state (a damaged recipe)
     */
    static void apply(byte[] record, BestMatcher finder, BlockWriter blocks) {
        ByteArrayInputStream in = new ByteArrayInputStream(record);
        int length = finder.window.length;
        try {
            int stateLength = Varints.readInt(in, SlotPatch.MAX_ENTROPY_STATE, "entropy state length");
            if (stateLength == 0) {
                throw new IllegalArgumentException("a SpeedBestCompression restart point carries the Writer's entropy state, this one none");
            }
            blocks.setState(in.readNBytes(stateLength));
            int items = Varints.readInt(in, length, "index items");
            int cursor = 0;
            for (int i = 0; i < items; i++) {
                int gapAndKind = Varints.readInt(in, 2 * length + 1, "index item start");
                int itemLength = Varints.readInt(in, length, "index item length");
                int start = cursor + (gapAndKind >>> 1);
                int end = start + itemLength;
                if (itemLength == 0 || end > length) {
                    throw new IllegalArgumentException("an index item from " + start + ", " + itemLength + " long, lies outside the " + length
                            + " bytes before the point");
                }
                // Indexing a position reads its 8 bytes: the Writer indexes none whose bytes go past its block.
                if (start > cursor && start + 7 > length || (gapAndKind & 1) == RUN && end + 7 > length) {
                    throw new IllegalArgumentException("an index item indexes positions up to " + end + ", whose bytes go past the " + length
                            + " before the point");
                }
                finder.replayRun(cursor, start);
                if ((gapAndKind & 1) == RUN) {
                    finder.replaySearches(start, end);
                }
                cursor = end;
            }
            if (cursor != length) {
                throw new IllegalArgumentException("the index items end " + (length - cursor) + " bytes before the point, where no block indexes");
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("a restart point's index record is cut short: " + e.getMessage(), e);
        }
        if (in.available() > 0) {
            throw new IllegalArgumentException("a restart point's index record has " + in.available() + " bytes past its items");
        }
    }
}
