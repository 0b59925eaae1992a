package dev.layerfold.dedup.codec.zstd.klauspost;

import dev.layerfold.dedup.codec.recipe.Varints;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a point's index record says of the indexing a {@link IndexReplay.Recorder} watched: the searches of a literal run
 * past 512 bytes as a run, what no block indexed as gaps; and no record where the indexing went back.
 */
class IndexReplayTest {

    private static final int WINDOW = 8 << 20;
    private static final byte[] STATE = {1, 2, 3};

    @Test
    void aThinnedLiteralRunIsOneRunAndABlocksEndAGap() throws IOException {
        IndexReplay.Recorder recorder = new IndexReplay.Recorder(WINDOW);
        int block = 128 << 10;
        // a literal run from the block's start, searched until a match found at its last search
        int s = 0;
        int lastSearch = 0;
        while (s < 2000) {
            recorder.searched(0, s);
            lastSearch = s;
            s = BestMatcher.nextSearch(s, 0);
        }
        recorder.indexed(lastSearch + 1, lastSearch + 40);
        // every position searched or indexed from the match's end to 16 bytes before the block's end
        for (int at = lastSearch + 40; at < block - 16; at++) {
            recorder.searched(at, at);
        }

        assertThat(items(recorder.record(block, STATE))).containsExactly(new Item(0, lastSearch + 1, true), new Item(block - 16, block, false));
    }

    @Test
    void anIndexingThatGoesBackGivesTheWindowsPointsNoRecord() {
        IndexReplay.Recorder recorder = new IndexReplay.Recorder(WINDOW);
        recorder.searched(0, 0);
        recorder.indexed(1, 100);
        recorder.searched(50, 50);
        recorder.searched(100, 100);

        assertThat(recorder.record(128 << 10, STATE)).isNull();
        assertThat(recorder.record(WINDOW + (256 << 10), STATE)).as("once the window is past it").isNotNull();
    }

    private record Item(int start, int end, boolean run) {
    }

    private static List<Item> items(byte[] record) throws IOException {
        ByteArrayInputStream in = new ByteArrayInputStream(record);
        assertThat(in.readNBytes((int) Varints.read(in))).isEqualTo(STATE);
        long count = Varints.read(in);
        List<Item> items = new ArrayList<>();
        int cursor = 0;
        for (int i = 0; i < count; i++) {
            long gapAndKind = Varints.read(in);
            int start = cursor + (int) (gapAndKind >>> 1);
            cursor = start + (int) Varints.read(in);
            items.add(new Item(start, cursor, (gapAndKind & 1) == 1));
        }
        assertThat(in.available()).isZero();
        return items;
    }
}
