package dev.layerfold.dedup.codec.recipe;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * Where an independent unit of a layer starts: a run of whole gzip members or zstd frames (each
 * encoded from a fresh encoder, so a unit can be encoded alone) that a restore encodes on a thread
 * of its own and a Range resumes at. A unit runs from its first member or frame to the next unit's
 * first, the last to the last member or frame; its bytes run from its blob offset to the next unit's,
 * the last to where the trailing bytes start. Recorded only by the dedup proof, which encoded every
 * unit alone and saw it give the original's bytes.
 *
 * @param first      the index of the unit's first gzip member or zstd frame
 * @param blobOffset where in the blob the unit's bytes start
 * @param sha256     the sha256 of the unit's bytes, against which a restore checks the unit before it goes out
 */
public record UnitPoint(int first, long blobOffset, byte[] sha256) {

    public UnitPoint {
        if (first < 0 || blobOffset < 0 || sha256.length != 32) {
            throw new IllegalArgumentException("not a unit point: first " + first + ", blob offset " + blobOffset + ", digest of " + sha256.length + " bytes");
        }
        sha256 = sha256.clone();
    }

    @Override
    public byte[] sha256() {
        return sha256.clone();
    }

    /** Whether {@code digest} is the sha256 of the unit's bytes. */
    public boolean matches(byte[] digest) {
        return Arrays.equals(sha256, digest);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof UnitPoint u && first == u.first && blobOffset == u.blobOffset && Arrays.equals(sha256, u.sha256);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(sha256);
    }

    @Override
    public String toString() {
        return "UnitPoint[first " + first + ", blob offset " + blobOffset + ", sha256 " + HexFormat.of().formatHex(sha256) + "]";
    }
}
