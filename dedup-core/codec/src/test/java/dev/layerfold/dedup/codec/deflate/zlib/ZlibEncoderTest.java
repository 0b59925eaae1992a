package dev.layerfold.dedup.codec.deflate.zlib;

import static dev.layerfold.dedup.codec.deflate.zlib.DeflateAssertions.assertInflatesTo;
import static dev.layerfold.dedup.codec.deflate.zlib.DeflateAssertions.assertSameStream;
import static dev.layerfold.dedup.codec.deflate.zlib.ZlibScript.slice;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link ZlibEncoder} against the system zlib, call sequence by call sequence. */
class ZlibEncoderTest {

    private static final byte[] TEXT = ReferenceInputs.text(7, 300_000);
    private static final byte[] BINARY = ReferenceInputs.binary(200_000);

    static Stream<Arguments> levelsAndStrategies() {
        return IntStream.rangeClosed(0, 9).boxed()
                .flatMap(level -> Stream.of(ZlibStrategy.values()).map(strategy -> Arguments.of(level, strategy)));
    }

    @ParameterizedTest(name = "level {0} {1}")
    @MethodSource("levelsAndStrategies")
    void everyLevelAndStrategyMatchesSystemZlibOnEveryKindOfInput(int level, ZlibStrategy strategy) throws IOException {
        for (ReferenceInputs.Named input : ReferenceInputs.small()) {
            ZlibScript script = new ZlibScript(new ZlibSettings(level, 8, 15, strategy))
                    .deflate(input.data(), ZlibFlush.FINISH);
            byte[] port = script.runOnPort(4093);
            assertSameStream(SystemZlib.get().run(script), port, input + " " + script);
            assertInflatesTo(input.data(), port);
        }
    }

    static Stream<Arguments> memLevelsAndWindows() {
        List<Arguments> cases = new ArrayList<>();
        int[][] memLevelAndWindowBits = {{1, 9}, {1, 15}, {2, 10}, {5, 12}, {9, 9}, {9, 15}};
        for (int[] pair : memLevelAndWindowBits) {
            for (int level : new int[] {0, 1, 6, 9}) {
                cases.add(Arguments.of(pair[0], pair[1], level));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "memLevel {0} windowBits {1} level {2}")
    @MethodSource("memLevelsAndWindows")
    void memLevelAndWindowSizeShapeTheOutputAsInZlib(int memLevel, int windowBits, int level) throws IOException {
        for (byte[] input : List.of(slice(TEXT, 0, 100_000), slice(BINARY, 0, 60_000))) {
            ZlibScript script = new ZlibScript(new ZlibSettings(level, memLevel, windowBits, ZlibStrategy.DEFAULT))
                    .deflate(input, ZlibFlush.FINISH);
            assertSameStream(SystemZlib.get().run(script), script.runOnPort(65536), script.toString());
        }
    }

    @ParameterizedTest(name = "level {0}")
    @ValueSource(ints = {0, 1, 3, 4, 6, 9})
    void everyFlushModeEndsBlocksAsZlibDoes(int level) throws IOException {
        // Level 0's output depends on how much input each deflate() call sees, so there every
        // segment ends in a flush; above 0 an unflushed segment is as good as any other.
        ZlibFlush unflushed = level == 0 ? ZlibFlush.BLOCK : ZlibFlush.NO_FLUSH;
        ZlibScript script = new ZlibScript(ZlibSettings.of(level))
                .deflate(slice(TEXT, 0, 1000), ZlibFlush.SYNC_FLUSH)
                .deflate(new byte[0], ZlibFlush.SYNC_FLUSH)
                .deflate(slice(TEXT, 1000, 50_000), unflushed)
                .deflate(slice(TEXT, 50_000, 90_000), ZlibFlush.FULL_FLUSH)
                .deflate(slice(BINARY, 0, 70_000), ZlibFlush.PARTIAL_FLUSH)
                .deflate(slice(TEXT, 90_000, 90_010), ZlibFlush.BLOCK)
                .deflate(slice(TEXT, 90_010, 200_000), ZlibFlush.SYNC_FLUSH)
                .deflate(new byte[0], ZlibFlush.FULL_FLUSH)
                .deflate(slice(TEXT, 200_000, 300_000), ZlibFlush.FINISH);
        assertSameStream(SystemZlib.get().run(script), script.runOnPort(8191), script.toString());
    }

    @ParameterizedTest(name = "level {0}")
    @ValueSource(ints = {0, 1, 6, 9})
    void dictionaryPrimesTheWindowAsInZlib(int level) throws IOException {
        for (int dictionaryLength : new int[] {1, 100, 32_768, 50_000}) {
            ZlibScript script = new ZlibScript(ZlibSettings.of(level))
                    .dictionary(slice(TEXT, 0, dictionaryLength))
                    .deflate(slice(TEXT, 50_000, 150_000), ZlibFlush.FINISH);
            assertSameStream(SystemZlib.get().run(script), script.runOnPort(10_000), script.toString());
        }
    }

    @Test
    void paramsSwitchLevelAndStrategyMidStreamAsInZlib() throws IOException {
        ZlibScript script = new ZlibScript(ZlibSettings.of(6))
                .deflate(slice(TEXT, 0, 40_000), ZlibFlush.NO_FLUSH)
                .params(1, ZlibStrategy.DEFAULT)
                .deflate(slice(TEXT, 40_000, 80_000), ZlibFlush.NO_FLUSH)
                .params(9, ZlibStrategy.FILTERED)
                .deflate(slice(BINARY, 0, 60_000), ZlibFlush.SYNC_FLUSH)
                .params(0, ZlibStrategy.DEFAULT)
                .deflate(slice(TEXT, 80_000, 180_000), ZlibFlush.SYNC_FLUSH)
                .params(4, ZlibStrategy.RLE)
                .deflate(slice(TEXT, 180_000, 200_000), ZlibFlush.NO_FLUSH)
                .params(9, ZlibStrategy.HUFFMAN_ONLY)
                .deflate(slice(TEXT, 200_000, 220_000), ZlibFlush.NO_FLUSH)
                .params(7, ZlibStrategy.DEFAULT)
                .deflate(slice(TEXT, 220_000, 300_000), ZlibFlush.FINISH);
        assertSameStream(SystemZlib.get().run(script), script.runOnPort(5000), script.toString());
    }

    @Test
    void primeAndPendingBitsFollowZlib() throws IOException {
        ZlibScript script = new ZlibScript(ZlibSettings.of(9))
                .deflate(slice(TEXT, 0, 30_000), ZlibFlush.BLOCK)
                .pending()
                .prime(10, 2)
                .pending()
                .prime(3, 5)
                .pending()
                .deflate(slice(TEXT, 30_000, 60_000), ZlibFlush.BLOCK)
                .pending()
                .prime(16, 0xbeef)
                .deflate(new byte[0], ZlibFlush.BLOCK)
                .pending()
                .deflate(slice(TEXT, 60_000, 61_000), ZlibFlush.FINISH);
        assertSameStream(SystemZlib.get().run(script), script.runOnPort(777), script.toString());
    }

    @Test
    void resetStartsAFreshStreamWithTheSameSettings() throws IOException {
        ZlibScript script = new ZlibScript(ZlibSettings.of(9))
                .deflate(slice(TEXT, 0, 100_000), ZlibFlush.FINISH)
                .reset()
                .dictionary(slice(TEXT, 60_000, 100_000))
                .deflate(slice(TEXT, 100_000, 101_000), ZlibFlush.FINISH)
                .reset()
                .deflate(slice(TEXT, 100_000, 101_000), ZlibFlush.FINISH);
        assertSameStream(SystemZlib.get().run(script), script.runOnPort(100_000), script.toString());
    }

    @ParameterizedTest(name = "level {0}")
    @ValueSource(ints = {0, 1, 6, 9})
    void howWritesSplitTheInputNeverChangesTheOutput(int level) throws IOException {
        ZlibScript script = new ZlibScript(ZlibSettings.of(level)).deflate(slice(TEXT, 0, 150_000), ZlibFlush.FINISH);
        byte[] whole = script.runOnPort(Integer.MAX_VALUE);
        for (int chunk : new int[] {1, 3, 258, 65_535, 65_536, 100_000}) {
            assertSameStream(whole, script.runOnPort(chunk), "writes of " + chunk + " bytes");
        }
    }

    @Test
    void writingAfterFinishIsRefused() throws IOException {
        ZlibEncoder encoder = ZlibEncoder.create(new ByteArrayOutputStream(), 6);
        encoder.write(TEXT, 0, 100);
        encoder.finish();
        assertThrows(IllegalStateException.class, () -> encoder.write(TEXT, 0, 100));
    }

    @Test
    void settingsOutsideZlibsRangesAreRefusedWithTheRange() {
        assertThrows(IllegalArgumentException.class, () -> new ZlibSettings(10, 8, 15, ZlibStrategy.DEFAULT));
        assertThrows(IllegalArgumentException.class, () -> new ZlibSettings(6, 0, 15, ZlibStrategy.DEFAULT));
        assertThrows(IllegalArgumentException.class, () -> new ZlibSettings(6, 8, 8, ZlibStrategy.DEFAULT));
    }
}
