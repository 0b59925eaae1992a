package dev.layerfold.dedup.codec.deflate.klauspost;

import static dev.layerfold.dedup.codec.deflate.golang.GoFlateAssertions.assertSameBytes;

import dev.layerfold.dedup.codec.deflate.golang.TestInputs;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The port writes what klauspost/pgzip 1.3.0 over klauspost/compress 1.20.3 (src/test/pgzipref,
 * built with {@code go}, which fetches them through the module proxy) writes, at every level -2 to 9.
 * Level 9 is klauspost's own, not Go 1.27's: klauspost/compress prices a literal its table has no
 * code for at 0 bits when it weighs a match, Go 1.27 at 1.
 */
class PgzipEncoderTest {

    private static Path pgzipref;

    @BeforeAll
    static void build() throws Exception {
        Path binary = Path.of("target", "go-reference", "pgzipref").toAbsolutePath();
        Files.createDirectories(binary.getParent());
        Process go = new ProcessBuilder("go", "build", "-o", binary.toString(), ".")
                .directory(Path.of("src", "test", "pgzipref").toFile()).redirectErrorStream(true).start();
        String output = new String(go.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (go.waitFor() != 0) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                throw new AssertionError("building pgzipref failed: " + output);
            }
            Assumptions.abort("PGZIP ORACLE UNAVAILABLE, pgzip NOT VERIFIED: " + output);
        }
        pgzipref = binary;
    }

    static IntStream levels() {
        return IntStream.rangeClosed(-2, 9);
    }

    @ParameterizedTest
    @MethodSource("levels")
    void blocksPrimedWithThePreviousTailMatchPgzip(int level) throws IOException {
        Path docs = Path.of("/usr/share/doc");
        byte[] tar = TestInputs.tarOf(Files.isDirectory(docs) ? docs : Path.of("/usr/include"), 3_000_000);
        // 1 MiB blocks as containers/image writes them, and small ones: tails, a short last block.
        for (int blockSize : new int[] {1 << 20, 100_000, 16_385}) {
            assertSameBytes(encode(level, blockSize, tar), pgzip(level, blockSize, tar), level, blockSize + "-byte blocks");
        }
        byte[] exact = Arrays.copyOf(tar, 200_000);
        assertSameBytes(encode(level, 100_000, exact), pgzip(level, 100_000, exact), level, "input a whole number of blocks");
        assertSameBytes(encode(level, 100_000, new byte[0]), pgzip(level, 100_000, new byte[0]), level, "empty input");
    }

    private static byte[] encode(int level, int blockSize, byte[] input) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PgzipEncoder encoder = PgzipEncoder.create(out, level, blockSize);
        Random random = new Random(input.length);
        for (int position = 0; position < input.length; ) {
            int n = Math.min(input.length - position, random.nextInt(300_000));
            encoder.write(input, position, n);
            position += n;
        }
        encoder.finish();
        return out.toByteArray();
    }

    /** pgzip's member without its 10-byte header and 8-byte trailer. */
    private static byte[] pgzip(int level, int blockSize, byte[] input) throws IOException {
        Process process = new ProcessBuilder(pgzipref.toString(), Integer.toString(level), Integer.toString(blockSize))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        Thread feeder = Thread.ofPlatform().start(() -> {
            try (OutputStream in = process.getOutputStream()) {
                in.write(input);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        byte[] member = process.getInputStream().readAllBytes();
        try {
            feeder.join();
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
        return Arrays.copyOfRange(member, 10, member.length - 8);
    }
}
