package dev.layerfold.dedup.codec.recipe;


import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;

/**
 * The tar skeleton as stored: its compressed op stream plus the totals it describes. The ops are
 * decoded lazily, one at a time, so reading a skeleton holds at most one inline op in memory.
 */
public record Skeleton(byte[] compressedOps, long tarSize, int fileCount, long fileBytes) {

    /**
     * The most compressed op bytes a skeleton may have: at 50 to 60 bytes per file about half a
     * million files, more than any real layer holds, while a split (which holds the skeleton and a
     * copy or two of it) stays within a small heap. The splitter refuses to grow past it and a recipe
     * claiming more is refused as damaged.
     */
    public static final int MAX_COMPRESSED_OPS = 32 << 20;

    public Skeleton {
        compressedOps = compressedOps.clone();
    }

    @Override
    public byte[] compressedOps() {
        return compressedOps.clone();
    }

    /**
     * The ops in order. The iterator throws {@link UncheckedIOException} if the op stream is
     * damaged (a recipe read from a damaged store).
     */
    public Iterator<SkeletonOp> ops() {
        Inflater inflater = new Inflater(true);
        DataInputStream in = new DataInputStream(new InflaterInputStream(new ByteArrayInputStream(compressedOps), inflater, 8192));
        return new Iterator<>() {
            private SkeletonOp next = read();

            @Override
            public boolean hasNext() {
                return next != null;
            }

            @Override
            public SkeletonOp next() {
                if (next == null) {
                    throw new NoSuchElementException();
                }
                SkeletonOp current = next;
                next = read();
                return current;
            }

            private SkeletonOp read() {
                try {
                    int tag = in.read();
                    switch (tag) {
                        case SkeletonWriter.END -> {
                            inflater.end();
                            return null;
                        }
                        case SkeletonWriter.INLINE -> {
                            byte[] bytes = new byte[Varints.readInt(in, SkeletonWriter.MAX_INLINE_OP, "inline op length")];
                            in.readFully(bytes);
                            return new SkeletonOp.Inline(bytes);
                        }
                        case SkeletonWriter.FILE, SkeletonWriter.FILE_ZERO_PADDED -> {
                            byte[] sha256 = new byte[32];
                            in.readFully(sha256);
                            return new SkeletonOp.File(FileRef.of(sha256, Varints.read(in)), tag == SkeletonWriter.FILE_ZERO_PADDED);
                        }
                        case -1 -> throw new EOFException("the recipe's tar skeleton ends without its end marker");
                        default -> throw new IOException("the recipe's tar skeleton holds an unknown op " + tag);
                    }
                } catch (IOException e) {
                    inflater.end();
                    throw new UncheckedIOException("damaged recipe skeleton: " + e.getMessage(), e);
                }
            }
        };
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Skeleton s && Arrays.equals(compressedOps, s.compressedOps) && tarSize == s.tarSize
                && fileCount == s.fileCount && fileBytes == s.fileBytes;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(compressedOps);
    }

    @Override
    public String toString() {
        return "Skeleton[" + compressedOps.length + " bytes compressed, tar " + tarSize + " bytes, " + fileCount + " files]";
    }
}
