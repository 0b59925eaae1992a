package dev.layerfold.dedup.codec.recipe;


import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;

/**
 * Builds the tar skeleton's op stream and compresses it as it grows, so the splitter holds only the
 * compressed skeleton (a small fraction of the layer) however many headers the layer has. Adjacent
 * inline bytes merge into one op. The compression is ours alone: any decoder of raw DEFLATE reads
 * it back; it never needs to be reproduced.
 */
public final class SkeletonWriter {

    static final int END = 0;
    static final int INLINE = 1;
    static final int FILE_ZERO_PADDED = 2;
    static final int FILE = 3;
    static final int MAX_INLINE_OP = 64 * 1024;

    private final ByteArrayOutputStream compressed = new ByteArrayOutputStream();
    // zlib's default level, not 9: on tar headers level 9's long match chains cost a quarter of a
    // split of small files for a skeleton only about 3% smaller.
    private final Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
    private final DeflaterOutputStream deflating = new DeflaterOutputStream(compressed, deflater, 8192);
    // File ops are written a few bytes at a time: buffered, so the deflater is not called per byte.
    private final BufferedOutputStream ops = new BufferedOutputStream(deflating, 64 * 1024);
    private final ByteArrayOutputStream pendingInline = new ByteArrayOutputStream();
    private long tarSize;
    private int fileCount;
    private long fileBytes;
    private boolean finished;

    public void inline(byte[] data, int offset, int length) {
        checkOpen();
        tarSize += length;
        while (length > 0) {
            int n = Math.min(length, MAX_INLINE_OP - pendingInline.size());
            pendingInline.write(data, offset, n);
            offset += n;
            length -= n;
            if (pendingInline.size() == MAX_INLINE_OP) {
                flushInline();
            }
        }
    }

    public void file(FileRef ref, boolean zeroPadded) {
        checkOpen();
        flushInline();
        SkeletonOp.File op = new SkeletonOp.File(ref, zeroPadded);
        try {
            ops.write(zeroPadded ? FILE_ZERO_PADDED : FILE);
            ops.write(ref.sha256Bytes());
            Varints.write(ops, ref.size());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        tarSize += ref.size() + op.paddingSize();
        fileCount++;
        fileBytes += ref.size();
    }

    /** Bytes of compressed ops so far (a few KiB may still wait in the deflater). */
    public long compressedSize() {
        return compressed.size();
    }

    /** Ends the op stream and returns the compressed skeleton. */
    public Skeleton finish() {
        checkOpen();
        flushInline();
        try {
            ops.write(END);
            ops.flush();
            deflating.finish();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        deflater.end();
        finished = true;
        return new Skeleton(compressed.toByteArray(), tarSize, fileCount, fileBytes);
    }

    private void flushInline() {
        if (pendingInline.size() == 0) {
            return;
        }
        try {
            ops.write(INLINE);
            Varints.write(ops, pendingInline.size());
            pendingInline.writeTo(ops);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        pendingInline.reset();
    }

    private void checkOpen() {
        if (finished) {
            throw new IllegalStateException("the skeleton is finished");
        }
    }
}
