package dev.layerfold.dedup.codec.recipe;

import dev.layerfold.dedup.codec.FileRef;

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
