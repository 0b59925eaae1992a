package dev.layerfold.restore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layerfold.dedup.codec.recipe.FileRef;
import dev.layerfold.dedup.codec.io.LayerRebuildException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.HexFormat;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A large file decompressed ahead on fetcher threads, piece by piece, read by the encoder. */
class StreamedAheadTest {

    private final ExecutorService fetchers = Executors.newFixedThreadPool(2);

    @AfterEach
    void stop() throws InterruptedException {
        fetchers.shutdownNow();
        fetchers.awaitTermination(10, TimeUnit.SECONDS);
    }

    @Test
    void readsTheWholeFileAcrossPiecesInOddSizedReads() throws Exception {
        byte[] content = bytes(5 * StreamedAhead.PIECE + 12_345);
        StreamedAhead streamed = new StreamedAhead(ref(content.length), () -> new ByteArrayInputStream(content), fetchers);

        ByteArrayOutputStream read = new ByteArrayOutputStream();
        byte[] buffer = new byte[70_001];
        for (int n = streamed.read(buffer); n >= 0; n = streamed.read(buffer)) {
            read.write(buffer, 0, n);
        }

        assertThat(read.toByteArray()).isEqualTo(content);
        assertThat(streamed.read()).isEqualTo(-1);
    }

    @Test
    void aStoredFileShorterThanItsSizeFailsTheRead() {
        byte[] content = bytes(3 * StreamedAhead.PIECE);
        StreamedAhead streamed = new StreamedAhead(ref(content.length + 600), () -> new ByteArrayInputStream(content), fetchers);

        assertThatThrownBy(() -> streamed.transferTo(OutputStreamSink.INSTANCE)).isInstanceOf(LayerRebuildException.class)
                .hasMessageContaining("600 bytes short");
    }

    @Test
    void aStoredFileLongerThanItsSizeFailsTheRead() {
        byte[] content = bytes(2 * StreamedAhead.PIECE + 10);
        StreamedAhead streamed = new StreamedAhead(ref(content.length - 10), () -> new ByteArrayInputStream(content), fetchers);

        assertThatThrownBy(() -> streamed.transferTo(OutputStreamSink.INSTANCE)).isInstanceOf(LayerRebuildException.class)
                .hasMessageContaining("longer than");
    }

    @Test
    void makesNoMoreThanItsPiecesAheadAndClosesItsStreamWhenClosedEarly() throws Exception {
        byte[] content = bytes(8 * StreamedAhead.PIECE);
        AtomicBoolean closed = new AtomicBoolean();
        CountingStream source = new CountingStream(content, closed);
        StreamedAhead streamed = new StreamedAhead(ref(content.length), () -> source, fetchers);

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (source.read < (long) StreamedAhead.PIECES * StreamedAhead.PIECE && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        Thread.sleep(100);
        assertThat(source.read).as("decompressed ahead, no further").isEqualTo((long) StreamedAhead.PIECES * StreamedAhead.PIECE);

        streamed.close();
        assertThat(closed).isTrue();
    }

    private static FileRef ref(long size) {
        return new FileRef(HexFormat.of().formatHex(new byte[32]), size);
    }

    private static byte[] bytes(int size) {
        byte[] bytes = new byte[size];
        new Random(size).nextBytes(bytes);
        return bytes;
    }

    private static final class OutputStreamSink extends java.io.OutputStream {
        static final OutputStreamSink INSTANCE = new OutputStreamSink();

        @Override
        public void write(int b) {
        }

        @Override
        public void write(byte[] b, int off, int len) {
        }
    }

    /** The decompressed file as its stream hands it over, counting what was taken from it. */
    private static final class CountingStream extends InputStream {
        private final ByteArrayInputStream in;
        private final AtomicBoolean closed;
        volatile long read;

        CountingStream(byte[] content, AtomicBoolean closed) {
            this.in = new ByteArrayInputStream(content);
            this.closed = closed;
        }

        @Override
        public int read() {
            int b = in.read();
            read += b < 0 ? 0 : 1;
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            int n = in.read(b, off, len);
            read += Math.max(0, n);
            return n;
        }

        @Override
        public void close() {
            closed.set(true);
        }
    }
}
