package dev.layerfold.e2e.blob;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;

class GeneratedContentTest {

    @Test
    void sameSeedGivesSameBytesHoweverTheStreamIsRead() throws IOException {
        byte[] inOneRead = new GeneratedContent(7, 10_003).readAllBytes();
        assertThat(readInPieces(new GeneratedContent(7, 10_003), 1, 3, 8, 13, 1000)).isEqualTo(inOneRead);
        assertThat(inOneRead).hasSize(10_003);
    }

    @Test
    void differentSeedsGiveDifferentBytes() throws IOException {
        assertThat(new GeneratedContent(1, 64).readAllBytes()).isNotEqualTo(new GeneratedContent(2, 64).readAllBytes());
    }

    @Test
    void bytesDoNotCompress() throws IOException {
        byte[] content = new GeneratedContent(3, 1 << 20).readAllBytes();
        Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION);
        deflater.setInput(content);
        deflater.finish();
        byte[] out = new byte[content.length * 2];
        int compressed = deflater.deflate(out);
        deflater.end();
        assertThat(compressed).isGreaterThan(content.length);
    }

    @Test
    void skippingLandsWhereReadingWould() throws IOException {
        byte[] all = new GeneratedContent(4, 100).readAllBytes();
        InputStream skipped = new GeneratedContent(4, 100);
        assertThat(skipped.skip(37)).isEqualTo(37);
        assertThat(skipped.readAllBytes()).isEqualTo(java.util.Arrays.copyOfRange(all, 37, 100));
    }

    private static byte[] readInPieces(InputStream in, int... pieceSizes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; ; i++) {
            byte[] piece = new byte[pieceSizes[i % pieceSizes.length]];
            int n = in.read(piece, 0, piece.length);
            if (n < 0) {
                return out.toByteArray();
            }
            out.write(piece, 0, n);
        }
    }
}
