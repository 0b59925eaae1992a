package dev.layerfold.dedup.codec.deflate.pigz;

import dev.layerfold.dedup.codec.deflate.DeflateEncoder;
import dev.layerfold.dedup.codec.deflate.TokenObserver;
import dev.layerfold.dedup.codec.deflate.zlib.LazyRestartState;
import dev.layerfold.dedup.codec.deflate.zlib.ZlibEncoder;
import dev.layerfold.dedup.codec.deflate.zlib.ZlibFlush;
import dev.layerfold.dedup.codec.deflate.zlib.ZlibSettings;
import dev.layerfold.dedup.codec.deflate.zlib.ZlibStrategy;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;

/**
 * pigz 2.x's raw deflate stream (the bytes between its gzip header and trailer), reproduced over the
 * zlib port: pigz cuts the input into blocks, compresses each with zlib and ends every block but the
 * last on a byte boundary so the pieces can be concatenated.
 *
 * <p>With several threads (pigz's compress_thread()) every block starts from deflateReset() and
 * deflateParams(), primed with the last 32 KiB of the previous block as dictionary; with one thread
 * (single_compress()) the blocks are one continuous zlib stream. Either way a block is ended with
 * Z_BLOCK and then brought to a byte boundary: Z_SYNC_FLUSH when an odd number of bits is pending
 * (or always with {@code --independent}, which adds a Z_FULL_FLUSH), otherwise empty fixed blocks
 * (deflatePrime(10, 2)) until the bits fill a byte. The last block ends with Z_FINISH.
 *
 * <p>zlib's window keeps bytes from the previous stream across deflateReset(), and longest_match() can
 * read a few of them at the very end of a block; with several threads they come from whatever block
 * that thread compressed before. This reproduces one thread handling all blocks in turn; a short last
 * block is the only place where pigz's thread scheduling could make a difference.
 */
public final class PigzEncoder implements DeflateEncoder {

    private final PigzSettings settings;
    private final ZlibEncoder zlib;
    private final byte[] block;
    private int blockLength;
    private final byte[] dictionary = new byte[PigzSettings.DICTIONARY_SIZE];
    private int dictionaryLength;
    private boolean firstBlock = true;

    private PigzEncoder(OutputStream sink, PigzSettings settings) {
        this.settings = settings;
        this.block = new byte[settings.blockSize()];
        // pigz initialises every stream at level 6 and switches with deflateParams() after a reset.
        this.zlib = ZlibEncoder.create(sink, ZlibSettings.of(6));
        zlib.reset();
        try {
            zlib.params(settings.level(), ZlibStrategy.DEFAULT);
        } catch (IOException e) {
            throw new IllegalStateException("deflateParams on a fresh stream writes nothing", e);
        }
    }

    /** pigz {@code -<level> -b <blockSize/1024>} with dictionaries, as run with several threads. */
    public static PigzEncoder create(OutputStream sink, int level, int blockSize) {
        return create(sink, new PigzSettings(level, blockSize, false, false));
    }

    public static PigzEncoder create(OutputStream sink, PigzSettings settings) {
        return new PigzEncoder(Objects.requireNonNull(sink, "sink"), Objects.requireNonNull(settings, "settings"));
    }

    /**
     * pigz from the block boundary that follows {@code history} (the input before it; only its last
     * 32 KiB matter): the stream a one-thread-at-a-time pigz run writes from there on, as long as no
     * stale window bytes of the previous block reach the output (see the class comment). Only the
     * several-threads code path starts every block afresh; a single-thread run is one zlib stream,
     * which {@link #resumeStream} resumes.
     */
    public static PigzEncoder resume(OutputStream sink, PigzSettings settings, byte[] history, int offset, int length) {
        if (settings.singleThread()) {
            throw new IllegalArgumentException("pigz -p 1 writes one zlib stream: it cannot be resumed at a block");
        }
        PigzEncoder encoder = create(sink, settings);
        encoder.firstBlock = false;
        if (!settings.independent()) {
            encoder.dictionaryLength = Math.min(length, encoder.dictionary.length);
            System.arraycopy(history, offset + length - encoder.dictionaryLength, encoder.dictionary, 0, encoder.dictionaryLength);
        }
        return encoder;
    }

    /**
     * pigz in one thread ({@code -p 1}) from the block boundary {@code boundary}, with {@code history}
     * the input before it (its last 32 KiB at least). single_compress() ends each block with Z_BLOCK
     * and pads it to a byte, which leaves zlib nothing pending: at a lazy level (4 to 9) the window,
     * the chains it rebuilds and where the point lies in the window ({@link #streamBoundary}) are all
     * the stream carries.
     *
     * @throws IllegalArgumentException if these settings are not one thread at a lazy level without
     *                                  {@code --independent}, or the boundary is not one a block ends at
     */
    public static PigzEncoder resumeStream(OutputStream sink, PigzSettings settings, LazyRestartState boundary, byte[] history, int offset,
                                           int length) {
        if (!streamResumable(settings)) {
            throw new IllegalArgumentException("only pigz -p 1 at levels 4 to 9 without --independent resumes its one zlib stream, not " + settings);
        }
        PigzEncoder encoder = create(sink, settings);
        encoder.firstBlock = false;
        encoder.zlib.resumeFlushed(boundary, history, offset, length);
        return encoder;
    }

    /** Whether a single-thread run with {@code settings} can be resumed at its block boundaries ({@link #resumeStream}). */
    public static boolean streamResumable(PigzSettings settings) {
        return settings.singleThread() && !settings.independent() && settings.level() >= 4;
    }

    /** Where a single-thread stream stands at the block boundary {@link #endBlock} reached: the next {@link #resumeStream}'s boundary. */
    public LazyRestartState streamBoundary() {
        if (!settings.singleThread() || blockLength > 0) {
            throw new IllegalStateException("only a single-thread pigz stream at a block boundary has a stream boundary");
        }
        return zlib.flushedBoundary();
    }

    /** Ends the block under way as a block that is not the last: the input stops at a block boundary. */
    public void endBlock() throws IOException {
        if (blockLength > 0) {
            compressBlock(false);
        }
    }

    @Override
    public void write(byte[] data, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, data.length);
        while (length > 0) {
            if (blockLength == block.length) {
                // pigz only knows a block is not the last once more input has arrived.
                compressBlock(false);
            }
            int n = Math.min(length, block.length - blockLength);
            System.arraycopy(data, offset, block, blockLength, n);
            blockLength += n;
            offset += n;
            length -= n;
        }
    }

    /** pigz's framing adds only empty blocks and alignment, never symbols of its own. */
    @Override
    public boolean observeTokens(TokenObserver observer) {
        return zlib.observeTokens(observer);
    }

    @Override
    public void finish() throws IOException {
        compressBlock(true);
    }

    private void compressBlock(boolean last) throws IOException {
        if (settings.singleThread()) {
            // single_compress(): --independent resets the stream before every block but the first.
            if (settings.independent() && !firstBlock) {
                zlib.reset();
            }
        } else {
            // compress_thread()
            zlib.reset();
            zlib.params(settings.level(), ZlibStrategy.DEFAULT);
            if (dictionaryLength > 0) {
                zlib.setDictionary(dictionary, 0, dictionaryLength);
            }
        }
        firstBlock = false;
        zlib.write(block, 0, blockLength);
        if (last) {
            zlib.finish();
        } else {
            alignToByte();
            if (!settings.independent() && !settings.singleThread()) {
                dictionaryLength = Math.min(blockLength, dictionary.length);
                System.arraycopy(block, blockLength - dictionaryLength, dictionary, 0, dictionaryLength);
            }
        }
        blockLength = 0;
    }

    /** The byte-boundary dance after each block but the last (pigz with zlib 1.2.6 or later). */
    private void alignToByte() throws IOException {
        zlib.flush(ZlibFlush.BLOCK);
        int bits = zlib.pendingBits();
        if ((bits & 1) != 0 || settings.independent()) {
            zlib.flush(ZlibFlush.SYNC_FLUSH);
        } else if ((bits & 7) != 0) {
            do {
                zlib.prime(10, 2); // an empty fixed block
                bits = zlib.pendingBits();
            } while ((bits & 7) != 0);
            zlib.flush(ZlibFlush.BLOCK);
        }
        if (settings.independent()) {
            zlib.flush(ZlibFlush.FULL_FLUSH);
        }
    }
}
