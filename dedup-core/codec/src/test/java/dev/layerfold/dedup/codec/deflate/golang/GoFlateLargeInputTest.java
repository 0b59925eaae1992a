package dev.layerfold.dedup.codec.deflate.golang;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.Inflater;
import java.util.zip.InflaterOutputStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * 100 MiB of real tar stream at the two levels real layers use (docker's 6, crane's 1), compared
 * with Go's output as both are produced and inflated on the fly: nothing is held whole.
 */
class GoFlateLargeInputTest {

    private static final long SIZE = 100L << 20;

    @ParameterizedTest
    @ValueSource(ints = {6, 1})
    void hundredMebibytesOfTarMatchGo(int level) throws Exception {
        GoFlateOracle go = GoFlateOracle.get();
        Random random = new Random(level);
        long[] flushes = random.longs(3, 0, SIZE).sorted().toArray();
        Process goFlate = go.startStream(level, flushes);
        StreamComparison comparison = new StreamComparison();
        Thread goOutput = Thread.ofPlatform().name("flateref-output").start(() -> {
            try (InputStream in = goFlate.getInputStream()) {
                byte[] buffer = new byte[1 << 16];
                for (int n; (n = in.read(buffer)) > 0; ) {
                    comparison.expected(buffer, 0, n);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });

        MessageDigest inputDigest = sha256();
        MessageDigest inflatedDigest = sha256();
        InflaterOutputStream inflated = new InflaterOutputStream(
                new DigestOutputStream(OutputStream.nullOutputStream(), inflatedDigest), new Inflater(true));
        OutputStream sink = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                comparison.actual(b, off, len);
                inflated.write(b, off, len);
            }
        };
        GoFlateEncoder encoder = GoFlateEncoder.create(sink, level);
        try (InputStream tar = TestInputs.repeatedTar(go.goRoot()); OutputStream goInput = goFlate.getOutputStream()) {
            byte[] buffer = new byte[1 << 18];
            long position = 0;
            int nextFlush = 0;
            while (position < SIZE) {
                long limit = nextFlush < flushes.length ? flushes[nextFlush] : SIZE;
                int want = (int) Math.min(limit - position, 1 + random.nextInt(buffer.length));
                int n = want == 0 ? 0 : tar.readNBytes(buffer, 0, want);
                assertThat(n).as("tar bytes").isEqualTo(want);
                goInput.write(buffer, 0, n);
                encoder.write(buffer, 0, n);
                inputDigest.update(buffer, 0, n);
                position += n;
                if (position == limit && nextFlush < flushes.length) {
                    encoder.flush();
                    nextFlush++;
                }
            }
        }
        encoder.finish();
        inflated.close();
        goOutput.join();
        assertThat(goFlate.waitFor()).as("flateref exit status").isZero();

        assertThat(comparison.difference()).as("level %d output vs Go's", level).isEmpty();
        assertThat(Arrays.equals(inflatedDigest.digest(), inputDigest.digest())).as("inflates to the input").isTrue();
    }

    private static MessageDigest sha256() throws NoSuchAlgorithmException {
        return MessageDigest.getInstance("SHA-256");
    }
}
