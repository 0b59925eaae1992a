package dev.layerfold.dedup.codec.deflate.zlib;

import static dev.layerfold.dedup.codec.deflate.zlib.DeflateAssertions.assertSameStream;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.zip.Deflater;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The JDK's {@link Deflater} is zlib too: Temurin bundles stock zlib (1.3.2 in Temurin 25), which
 * writes what the port writes. Other JDK builds link the system zlib, which may be zlib-ng, whose
 * output differs; that is why the port exists, and why this only runs on Temurin.
 */
class JdkDeflaterComparisonTest {

    @ParameterizedTest(name = "level {0}")
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9})
    void temurinsBundledZlibWritesWhatThePortWrites(int level) throws IOException {
        String vendor = System.getProperty("java.vendor", "");
        assumeTrue(vendor.contains("Adoptium"), "JDK from " + vendor + " may link a zlib-ng system zlib");
        for (ReferenceInputs.Named input : ReferenceInputs.small()) {
            for (int strategy : List.of(Deflater.DEFAULT_STRATEGY, Deflater.FILTERED, Deflater.HUFFMAN_ONLY)) {
                ZlibStrategy same = switch (strategy) {
                    case Deflater.FILTERED -> ZlibStrategy.FILTERED;
                    case Deflater.HUFFMAN_ONLY -> ZlibStrategy.HUFFMAN_ONLY;
                    default -> ZlibStrategy.DEFAULT;
                };
                ByteArrayOutputStream port = new ByteArrayOutputStream();
                ZlibEncoder encoder = ZlibEncoder.create(port, new ZlibSettings(level, 8, 15, same));
                encoder.write(input.data(), 0, input.data().length);
                encoder.finish();
                assertSameStream(jdkDeflate(input.data(), level, strategy), port.toByteArray(),
                        "java.util.zip.Deflater level " + level + " " + same + " on " + input);
            }
        }
    }

    private static byte[] jdkDeflate(byte[] input, int level, int strategy) {
        Deflater deflater = new Deflater(level, true);
        try {
            deflater.setStrategy(strategy);
            deflater.setInput(input);
            deflater.finish();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buf = new byte[64 * 1024];
            while (!deflater.finished()) {
                out.write(buf, 0, deflater.deflate(buf));
            }
            return out.toByteArray();
        } finally {
            deflater.end();
        }
    }
}
