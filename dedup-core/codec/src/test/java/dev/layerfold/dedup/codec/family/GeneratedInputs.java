package dev.layerfold.dedup.codec.family;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * The inputs the contract suites encode, generated from a seed so that every machine runs the same
 * bytes (nothing is read from the machine's {@code /usr}): the kinds of data layers hold, and sizes at
 * the edges encoders care about.
 */
public final class GeneratedInputs {

    /** Past DEFLATE's 32 KiB window, zlib's 64 KiB stored block and pgzip's default 1 MiB block. */
    public static final int OVER_BLOCK = (1 << 20) + 4099;

    private static final String[] WORDS = ("layer tar gzip usr bin lib share doc the of and to in is for on with as by that "
            + "return if else while struct func import package static final class void int byte long copy match window "
            + "{ } ( ) ; = == != < > + - * / # include define\n\t    ").split(" ");

    private GeneratedInputs() {
    }

    /** A named input; the name is what a failing test shows. */
    public record Named(String name, byte[] data) {
        @Override
        public String toString() {
            return name + " (" + data.length + " bytes)";
        }
    }

    /** Empty, tiny, text-like, random, highly repetitive, and text a bit over {@link #OVER_BLOCK}. */
    public static List<Named> standard(long seed) {
        return List.of(
                new Named("empty", new byte[0]),
                new Named("tiny", "a".getBytes(StandardCharsets.US_ASCII)),
                new Named("text", text(200_000, seed)),
                new Named("random", random(100_000, seed)),
                new Named("repetitive", repetitive(300_000, seed)),
                new Named("over a block", text(OVER_BLOCK, seed + 1)));
    }

    /** Uniform random bytes: already compressed data, stored blocks. */
    public static byte[] random(int size, long seed) {
        byte[] data = new byte[size];
        new Random(seed).nextBytes(data);
        return data;
    }

    /** Words and symbols of source code and prose: many short and medium matches at all distances. */
    public static byte[] text(int size, long seed) {
        Random random = new Random(seed);
        ByteArrayOutputStream out = new ByteArrayOutputStream(size + 64);
        while (out.size() < size) {
            String word = WORDS[random.nextInt(WORDS.length)];
            out.writeBytes(word.getBytes(StandardCharsets.US_ASCII));
            out.write(random.nextInt(8) == 0 ? '\n' : ' ');
            if (random.nextInt(500) == 0) {
                out.writeBytes(Long.toHexString(random.nextLong()).getBytes(StandardCharsets.US_ASCII));
            }
        }
        return Arrays.copyOf(out.toByteArray(), size);
    }

    /** Long runs, short periods and copies from near and far: matches up to 258 bytes, RLE. */
    public static byte[] repetitive(int size, long seed) {
        Random random = new Random(seed);
        byte[] data = new byte[size];
        int i = 0;
        while (i < size) {
            int run = Math.min(size - i, 1 + random.nextInt(3000));
            switch (random.nextInt(3)) {
                case 0 -> Arrays.fill(data, i, i + run, (byte) random.nextInt(3));
                case 1 -> {
                    int period = 1 + random.nextInt(12);
                    for (int j = 0; j < run; j++) {
                        data[i + j] = (byte) ('a' + (j % period));
                    }
                }
                default -> {
                    int distance = 1 + random.nextInt(Math.max(1, Math.min(i, 32_000)));
                    for (int j = 0; j < run; j++) {
                        data[i + j] = i >= distance ? data[i + j - distance] : (byte) j;
                    }
                }
            }
            i += run;
        }
        return data;
    }

    /**
     * A POSIX tar of at least {@code size} bytes of generated files (text, random, repetitive, of
     * sizes from empty to a few hundred KiB), as a layer holds: what the splitter reads.
     */
    public static byte[] tar(int size, long seed) {
        Random random = new Random(seed);
        ByteArrayOutputStream out = new ByteArrayOutputStream(size + 8192);
        int n = 0;
        while (out.size() < size) {
            int length = random.nextInt(6) == 0 ? random.nextInt(64) : random.nextInt(400_000);
            long fileSeed = random.nextLong();
            byte[] body = switch (random.nextInt(4)) {
                case 0 -> random(length, fileSeed);
                case 1 -> repetitive(length, fileSeed);
                default -> text(length, fileSeed);
            };
            out.writeBytes(header("usr/share/generated/file-" + n++ + ".txt", body.length));
            out.writeBytes(body);
            out.writeBytes(new byte[(512 - body.length % 512) % 512]);
        }
        out.writeBytes(new byte[1024]);
        return out.toByteArray();
    }

    private static byte[] header(String name, long size) {
        byte[] h = new byte[512];
        put(h, 0, name);
        put(h, 100, "0000644\0");
        put(h, 108, "0000000\0");
        put(h, 116, "0000000\0");
        put(h, 124, String.format("%011o\0", size));
        put(h, 136, "14712345670\0");
        Arrays.fill(h, 148, 156, (byte) ' ');
        h[156] = '0';
        put(h, 257, "ustar\0");
        put(h, 263, "00");
        int sum = 0;
        for (byte b : h) {
            sum += b & 0xff;
        }
        put(h, 148, String.format("%06o\0 ", sum));
        return h;
    }

    private static void put(byte[] header, int offset, String value) {
        byte[] bytes = value.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(bytes, 0, header, offset, bytes.length);
    }
}
