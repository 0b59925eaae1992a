package dev.layerfold.storage.dedup;

import dev.layerfold.storage.Digest;

/**
 * A pack the index counts as stored: its size, the compressed bytes of the files forgotten from it
 * since it was written (dead: nothing will read them again, but they take space until the pack is
 * rewritten), and how many times files were recorded in it ({@code generation}), which a rewrite
 * passes back to {@link DedupIndex#relocate} so that a pack stored again meanwhile is not retired.
 */
public record PackUse(Digest pack, long size, long deadBytes, long generation) {

    /** The share of the pack's bytes still read by some file's location. */
    public double liveShare() {
        return size == 0 ? 0 : Math.max(0, size - deadBytes) / (double) size;
    }
}
