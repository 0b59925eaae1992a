package dev.layerfold.dedup.codec.recipe;


import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * One step of the tar skeleton: the tar stream is the concatenation of its ops' bytes.
 */
public sealed interface SkeletonOp {

    /** Bytes kept as they were: header blocks, metadata entries, non-zero padding, end-of-archive. */
    record Inline(byte[] bytes) implements SkeletonOp {
        public Inline {
            bytes = bytes.clone();
        }

        @Override
        public byte[] bytes() {
            return bytes.clone();
        }

        /** How many bytes it stands for, without the copy {@link #bytes()} makes. */
        public int length() {
            return bytes.length;
        }

        /** Writes its bytes to {@code out}, without the copy {@link #bytes()} makes: a rebuild writes every header so. */
        public void writeTo(OutputStream out) throws IOException {
            out.write(bytes);
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Inline i && Arrays.equals(bytes, i.bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }

        @Override
        public String toString() {
            return "Inline[" + bytes.length + " bytes]";
        }
    }

    /**
     * A file body by reference; if {@code zeroPadded}, zero bytes follow up to the next 512-byte
     * boundary (the usual tar padding, so it needs no inline bytes).
     */
    record File(FileRef ref, boolean zeroPadded) implements SkeletonOp {

        public long paddingSize() {
            return zeroPadded ? (512 - ref.size() % 512) % 512 : 0;
        }
    }
}
