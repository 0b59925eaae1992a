package dev.layerfold.dedup.codec.deflate.klauspost;

import dev.layerfold.dedup.codec.deflate.DeflateEncoder;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;

/**
 * klauspost/pgzip's deflate stream (podman, buildah, skopeo and CRI-O through containers/image,
 * which call {@code pgzip.NewWriter}: the default level, which klauspost makes 5, and 1 MiB blocks). The input is cut into blocks of
 * {@code blockSize} bytes, each compressed on its own by klauspost/compress's {@code flate}
 * ({@link KlauspostFlateEncoder} as the {@link FlateRelease} pgzip was built with writes) primed with
 * the previous block's last 16 KiB when that block was longer, and ended by a sync flush; the last
 * block, even empty, also gets the final empty block. Which goroutine compresses a block never
 * changes its bytes.
 */
public final class PgzipEncoder implements DeflateEncoder {

    /** pgzip's {@code defaultBlockSize}. */
    public static final int DEFAULT_BLOCK_SIZE = 1 << 20;
    private static final int TAIL_SIZE = 16384;

    private final OutputStream sink;
    private final KlauspostFlateEncoder flate;
    private final byte[] block;
    private final byte[] tail = new byte[TAIL_SIZE];
    private int tailLength;
    private int filled;
    private boolean finished;

    private PgzipEncoder(OutputStream sink, int level, int blockSize, FlateRelease release) {
        this.sink = sink;
        this.flate = KlauspostFlateEncoder.create(sink, flateLevel(level), release);
        this.block = new byte[blockSize];
    }

    /**
     * An encoder writing what {@code pgzip.NewWriterLevel(w, level)} with {@code SetConcurrency(blockSize, n)}
     * writes after its gzip header, built with klauspost/compress {@code release}.
     *
     * @throws IllegalArgumentException for a level outside [-2, 9] or a block size pgzip refuses (at most 16 KiB)
     */
    public static PgzipEncoder create(OutputStream sink, int level, int blockSize, FlateRelease release) {
        if (blockSize <= TAIL_SIZE) {
            throw new IllegalArgumentException("pgzip block size must be over " + TAIL_SIZE + " bytes, got " + blockSize);
        }
        return new PgzipEncoder(Objects.requireNonNull(sink, "sink"), level, blockSize, Objects.requireNonNull(release, "release"));
    }

    /**
     * pgzip from the block boundary that follows {@code history} (the input before it, whole blocks;
     * only its last 16 KiB matter): every block is compressed on its own from that tail, so this
     * writes what the whole run writes from there on.
     */
    public static PgzipEncoder resume(OutputStream sink, int level, int blockSize, FlateRelease release,
            byte[] history, int offset, int length) {
        PgzipEncoder encoder = create(sink, level, blockSize, release);
        if (length > 0) {
            if (length < TAIL_SIZE) {
                throw new IllegalArgumentException("a pgzip block boundary follows at least one whole block of over " + TAIL_SIZE + " bytes");
            }
            System.arraycopy(history, offset + length - TAIL_SIZE, encoder.tail, 0, TAIL_SIZE);
            encoder.tailLength = TAIL_SIZE;
        }
        return encoder;
    }

    /** klauspost/compress's default level is 5 (Go's is 6); the others are Go 1.27's. */
    static int flateLevel(int level) {
        return level == -1 ? 5 : level;
    }

    @Override
    public void write(byte[] data, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, data.length);
        if (finished) {
            throw new IllegalStateException("the encoder is finished");
        }
        while (length > 0) {
            int n = Math.min(length, block.length - filled);
            System.arraycopy(data, offset, block, filled, n);
            filled += n;
            offset += n;
            length -= n;
            if (filled == block.length) {
                compressBlock(false);
            }
        }
    }

    @Override
    public void finish() throws IOException {
        if (finished) {
            throw new IllegalStateException("the encoder is finished");
        }
        compressBlock(true);
        finished = true;
    }

    /** pgzip's {@code compressCurrent} and {@code compressBlock}, one block at a time. */
    private void compressBlock(boolean last) throws IOException {
        flate.reset(sink, tail, 0, tailLength);
        flate.write(block, 0, filled);
        flate.flush();
        if (last) {
            flate.finish();
        }
        if (filled > TAIL_SIZE) {
            System.arraycopy(block, filled - TAIL_SIZE, tail, 0, TAIL_SIZE);
            tailLength = TAIL_SIZE;
        } else {
            tailLength = 0;
        }
        filled = 0;
    }
}
