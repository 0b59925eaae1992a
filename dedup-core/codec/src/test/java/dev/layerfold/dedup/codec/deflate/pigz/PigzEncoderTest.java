package dev.layerfold.dedup.codec.deflate.pigz;

import static dev.layerfold.dedup.codec.deflate.zlib.DeflateAssertions.assertInflatesTo;
import static dev.layerfold.dedup.codec.deflate.zlib.DeflateAssertions.assertSameStream;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.layerfold.dedup.codec.deflate.zlib.ReferenceInputs;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link PigzEncoder} against the pigz binary, on inputs spanning several blocks. */
class PigzEncoderTest {

    private static final int KIB = 1024;
    /** About 4.5 blocks of 128 KiB: text, a real tar, binary and random data. */
    private static final byte[] INPUT = concat(ReferenceInputs.text(3, 200_000), ReferenceInputs.systemTar(),
            ReferenceInputs.binary(150_000), ReferenceInputs.random(4, 60_000), ReferenceInputs.repetitive(100_000));

    @ParameterizedTest(name = "pigz -{0}")
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9})
    void everyLevelMatchesPigzWithDictionariesAcrossBlocks(int level) throws IOException {
        assertMatchesPigz(new PigzSettings(level, 128 * KIB, false, false), INPUT);
    }

    @ParameterizedTest(name = "pigz -p 1 -{0}")
    @ValueSource(ints = {1, 3, 6, 9})
    void singleThreadedPigzIsOneContinuousStream(int level) throws IOException {
        assertMatchesPigz(new PigzSettings(level, 128 * KIB, false, true), INPUT);
    }

    @ParameterizedTest(name = "pigz -i -{0}")
    @ValueSource(ints = {1, 6, 9})
    void independentBlocksMatchPigzWithAndWithoutThreads(int level) throws IOException {
        assertMatchesPigz(new PigzSettings(level, 128 * KIB, true, false), INPUT);
        assertMatchesPigz(new PigzSettings(level, 128 * KIB, true, true), INPUT);
    }

    @ParameterizedTest(name = "pigz -9 -b {0}")
    @ValueSource(ints = {32, 64, 100, 256})
    void otherBlockSizesMatchPigz(int blockKib) throws IOException {
        assertMatchesPigz(new PigzSettings(9, blockKib * KIB, false, false), INPUT);
    }

    @Test
    void inputsEndingOnAndAroundBlockBoundariesMatchPigz() throws IOException {
        for (int size : new int[] {0, 1, 128 * KIB - 1, 128 * KIB, 128 * KIB + 1, 256 * KIB}) {
            byte[] input = Arrays.copyOf(INPUT, size);
            assertMatchesPigz(PigzSettings.of(9), input);
            assertMatchesPigz(new PigzSettings(6, 128 * KIB, false, true), input);
        }
    }

    @Test
    void settingsPigzDoesNotReproduceAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> PigzSettings.of(0));
        assertThrows(IllegalArgumentException.class, () -> PigzSettings.of(11));
        assertThrows(IllegalArgumentException.class, () -> new PigzSettings(9, 16 * KIB, false, false));
        // pigz's own maximum, -b 524288: a recipe naming more is damaged and must not size a buffer
        assertThrows(IllegalArgumentException.class, () -> new PigzSettings(9, 512 * 1024 * KIB + KIB, false, false));
    }

    private static void assertMatchesPigz(PigzSettings settings, byte[] input) throws IOException {
        ByteArrayOutputStream port = new ByteArrayOutputStream();
        PigzEncoder encoder = PigzEncoder.create(port, settings);
        for (int i = 0, n; i < input.length; i += n) {
            n = Math.min(50_000, input.length - i);
            encoder.write(input, i, n);
        }
        encoder.finish();
        assertSameStream(Pigz.deflate(settings, input), port.toByteArray(),
                String.join(" ", Pigz.command(settings)) + " on " + input.length + " bytes");
        assertInflatesTo(input, port.toByteArray());
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
