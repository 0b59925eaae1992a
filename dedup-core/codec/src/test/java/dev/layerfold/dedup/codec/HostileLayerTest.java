package dev.layerfold.dedup.codec;

import dev.layerfold.dedup.codec.io.FileSink;
import dev.layerfold.dedup.codec.io.LayerFormatException;
import dev.layerfold.dedup.codec.recipe.Skeleton;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Layers made to exhaust a splitter's memory are refused early, with a message that says why, while
 * the split allocates a bounded amount; layers at the limits real tools write still split exactly.
 * The hostile layers are generated as they are read, never held.
 */
class HostileLayerTest {

    private static final int ONE_MIB = 1 << 20;

    @Test
    void aHundredMegabyteGnuLongNameIsRefusedWithoutReadingIt() throws Exception {
        long nameLength = 100_000_000;
        CountingStream layer = new CountingStream(new SequenceInputStream(
                new ByteArrayInputStream(new TarBlocks().header("././@LongLink", 'L', nameLength, false).bytes()),
                new SequenceInputStream(new RandomBytes(nameLength, 1),
                        new ByteArrayInputStream(new TarBlocks().header("file", '0', 0, false).endOfArchive().bytes()))));

        long allocatedBefore = allocatedByThisThread();
        assertThatThrownBy(() -> TestCodec.splitter().split(layer, FileSink.discarding()))
                .isInstanceOf(LayerFormatException.class)
                .hasMessageContaining("type 'L'").hasMessageContaining("offset 0").hasMessageContaining(nameLength + " bytes")
                .hasMessageContaining("1 MiB").hasMessageContaining("not split");
        long allocated = allocatedByThisThread() - allocatedBefore;

        assertThat(layer.count).as("bytes read").isLessThan(ONE_MIB);
        assertThat(allocated).as("bytes allocated by the split").isLessThan(16L * ONE_MIB);
    }

    @ParameterizedTest
    @ValueSource(chars = {'x', 'g', 'L', 'K'})
    void anExtensionHeaderOneByteOverGosLimitLeavesTheLayerUnsplit(char type) throws Exception {
        byte[] tar = new TarBlocks().header("ext", type, ONE_MIB + 1, false).data(new byte[ONE_MIB + 1], (byte) 0)
                .header("file", '0', 1, false).data(new byte[] {'z'}, (byte) 0).endOfArchive().bytes();

        for (byte[] layer : new byte[][] {tar, TestCodec.gzipMember(tar, 6)}) {
            MemoryFileStore store = new MemoryFileStore();
            assertThatThrownBy(() -> TestCodec.splitter().split(TestCodec.stream(layer), store))
                    .isInstanceOf(LayerFormatException.class).hasMessageContaining("type '" + type + "'");
            assertThat(store.completed).isZero();
        }
    }

    @Test
    void aLongNameOfExactlyGosLimitStillSplitsAndRebuildsExactly() throws Exception {
        byte[] name = new byte[ONE_MIB];
        Arrays.fill(name, (byte) 'n');
        byte[] body = "the file".getBytes(StandardCharsets.US_ASCII);
        byte[] tar = new TarBlocks().header("././@LongLink", 'L', name.length, false).data(name, (byte) 0)
                .header("n", '0', body.length, false).data(body, (byte) 0).endOfArchive().bytes();
        byte[] layer = TestCodec.gzipMember(tar, 6);

        TestCodec.RoundTrip trip = TestCodec.roundTrip(TestCodec.splitter(), layer);

        assertThat(trip.rebuilt()).isEqualTo(layer);
        assertThat(trip.store().bodies.values()).containsExactly(body);
    }

    @Test
    void headersWhoseSkeletonOutgrowsTheLimitLeaveTheLayerUnsplitWithinBoundedMemory() throws Exception {
        long allocatedBefore = allocatedByThisThread();
        assertThatThrownBy(() -> TestCodec.splitter().split(new RandomDirectories(2), FileSink.discarding()))
                .isInstanceOf(LayerFormatException.class)
                .hasMessageContaining("skeleton larger than " + Skeleton.MAX_COMPRESSED_OPS)
                .hasMessageContaining("not split");
        long allocated = allocatedByThisThread() - allocatedBefore;

        // Allocated in total, not held at once: the skeleton's buffer grows by doubling, so its
        // successive arrays add up to about four times the limit; what matters is that this does
        // not grow with the layer.
        assertThat(allocated).as("bytes allocated by the split")
                .isLessThan(5L * Skeleton.MAX_COMPRESSED_OPS);
    }

    private static long allocatedByThisThread() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    /** {@code length} pseudo-random bytes, made as they are read. */
    private static final class RandomBytes extends InputStream {
        private final SplittableRandom random;
        private long remaining;

        RandomBytes(long length, long seed) {
            this.remaining = length;
            this.random = new SplittableRandom(seed);
        }

        @Override
        public int read() {
            if (remaining == 0) {
                return -1;
            }
            remaining--;
            return random.nextInt(256);
        }

        @Override
        public int read(byte[] buffer, int offset, int length) {
            if (remaining == 0) {
                return -1;
            }
            int n = (int) Math.min(length, remaining);
            for (int i = 0; i < n; i++) {
                buffer[offset + i] = (byte) random.nextInt(256);
            }
            remaining -= n;
            return n;
        }
    }

    /**
     * An endless tar of directory entries with random names, links and prefixes: headers that do not
     * compress. Made without allocating, so the test measures the splitter's allocations alone.
     */
    private static final class RandomDirectories extends InputStream {
        private final SplittableRandom random;
        private final byte[] template = new TarBlocks().header("d", '5', 0, false).bytes();
        private final byte[] block = new byte[512];
        private int position = block.length;

        RandomDirectories(long seed) {
            this.random = new SplittableRandom(seed);
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            read(one, 0, 1);
            return one[0] & 0xff;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) {
            if (position == block.length) {
                nextHeader();
            }
            int n = Math.min(length, block.length - position);
            System.arraycopy(block, position, buffer, offset, n);
            position += n;
            return n;
        }

        private void nextHeader() {
            System.arraycopy(template, 0, block, 0, block.length);
            randomText(0, 100);
            randomText(157, 100);
            randomText(345, 155);
            Arrays.fill(block, 148, 156, (byte) ' ');
            int sum = 0;
            for (byte b : block) {
                sum += b & 0xff;
            }
            for (int i = 153; i >= 148; i--, sum >>>= 3) {
                block[i] = (byte) ('0' + (sum & 7));
            }
            block[154] = 0;
            position = 0;
        }

        private void randomText(int offset, int length) {
            for (int i = 0; i < length; i++) {
                block[offset + i] = (byte) ('!' + random.nextInt(94));
            }
        }
    }

    private static final class CountingStream extends java.io.FilterInputStream {
        long count;

        CountingStream(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            count += b >= 0 ? 1 : 0;
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = super.read(buffer, offset, length);
            count += Math.max(n, 0);
            return n;
        }
    }
}
