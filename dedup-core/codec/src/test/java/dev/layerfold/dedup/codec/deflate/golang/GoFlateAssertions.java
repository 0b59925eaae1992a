package dev.layerfold.dedup.codec.deflate.golang;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.dedup.codec.deflate.SyncFlushEncoder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/** Runs a Java port of a Go encoder and checks it against Go's output and against inflation. */
public final class GoFlateAssertions {

    /** Makes the port under test at a level, writing raw deflate to a sink. */
    @FunctionalInterface
    public interface Port {
        SyncFlushEncoder create(OutputStream sink, int level);
    }

    /** The Go 1.8 to 1.26 port. */
    static final Port GO_1_26 = GoFlateEncoder::create;

    private GoFlateAssertions() {
    }

    static void assertMatchesGo(GoFlateOracle go, int level, byte[] input, long seed) {
        assertMatchesGo(GO_1_26, go, level, input, seed);
    }

    static byte[] encode(int level, byte[] input, long[] flushOffsets, Random random) {
        return encode(GO_1_26, level, input, flushOffsets, random);
    }

    /**
     * Asserts that the port writes Go's bytes for {@code input} at {@code level}: written whole, in
     * random pieces, and with flushes at random points (also in random pieces).
     */
    public static void assertMatchesGo(Port port, GoFlateOracle go, int level, byte[] input, long seed) {
        Random random = new Random(seed);
        byte[] expected = go.compress(level, input);
        byte[] whole = encode(port, level, input, new long[0], null);
        assertSameBytes(whole, expected, level, "written whole");
        assertInflatesTo(whole, input);
        assertSameBytes(encode(port, level, input, new long[0], random), expected, level, "written in random pieces");

        long[] flushes = randomFlushOffsets(random, input.length);
        byte[] flushed = encode(port, level, input, flushes, random);
        assertSameBytes(flushed, go.compress(level, input, flushes), level, "flushed at " + Arrays.toString(flushes));
        assertInflatesTo(flushed, input);
    }

    public static long[] randomFlushOffsets(Random random, int length) {
        long[] flushes = new long[random.nextInt(6)];
        for (int i = 0; i < flushes.length; i++) {
            flushes[i] = random.nextInt(length + 1);
        }
        Arrays.sort(flushes);
        return flushes;
    }

    public static void assertSameBytes(byte[] actual, byte[] expected, int level, String how) {
        int mismatch = Arrays.mismatch(actual, expected);
        assertThat(mismatch).as("level %d, %s: %d bytes vs Go's %d, first difference at %d%s", level, how,
                actual.length, expected.length, mismatch, context(actual, expected, mismatch)).isEqualTo(-1);
    }

    private static String context(byte[] actual, byte[] expected, int mismatch) {
        if (mismatch < 0) {
            return "";
        }
        int from = Math.max(0, mismatch - 8);
        return "\n  ours: " + HexFormat.of().formatHex(actual, from, Math.min(actual.length, mismatch + 8))
                + "\n  Go's: " + HexFormat.of().formatHex(expected, from, Math.min(expected.length, mismatch + 8));
    }

    /**
     * The port's output for {@code input}, flushing after each of {@code flushOffsets} input bytes,
     * in pieces of random sizes (empty ones included) when {@code random} is given.
     */
    public static byte[] encode(Port port, int level, byte[] input, long[] flushOffsets, Random random) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            SyncFlushEncoder encoder = port.create(out, level);
            int position = 0;
            int nextFlush = 0;
            while (true) {
                while (nextFlush < flushOffsets.length && flushOffsets[nextFlush] == position) {
                    encoder.flush();
                    nextFlush++;
                }
                if (position == input.length) {
                    break;
                }
                int limit = nextFlush < flushOffsets.length ? (int) flushOffsets[nextFlush] : input.length;
                int n = random == null ? limit - position : Math.min(limit - position, pieceSize(random));
                encoder.write(input, position, n);
                position += n;
            }
            encoder.finish();
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int pieceSize(Random random) {
        return switch (random.nextInt(4)) {
            case 0 -> random.nextInt(17);
            case 1 -> random.nextInt(1000);
            case 2 -> random.nextInt(70_000);
            default -> random.nextInt(300_000);
        };
    }

    public static void assertInflatesTo(byte[] compressed, byte[] input) {
        assertThat(inflate(compressed)).as("inflated").isEqualTo(input);
    }

    public static byte[] inflate(byte[] compressed) {
        Inflater inflater = new Inflater(true);
        try {
            inflater.setInput(compressed);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buffer = new byte[1 << 16];
            while (!inflater.finished()) {
                int n = inflater.inflate(buffer);
                out.write(buffer, 0, n);
                if (n == 0 && !inflater.finished() && (inflater.needsInput() || inflater.needsDictionary())) {
                    throw new AssertionError("truncated DEFLATE stream");
                }
            }
            assertThat(inflater.getRemaining()).as("bytes after the final block").isZero();
            return out.toByteArray();
        } catch (DataFormatException e) {
            throw new AssertionError("invalid DEFLATE stream: " + e.getMessage(), e);
        } finally {
            inflater.end();
        }
    }
}
