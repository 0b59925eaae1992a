package dev.layerfold.storage.dedup;

import dev.layerfold.storage.Digest;
import java.util.Map;

/**
 * The live files of a pack copied into a new one, published, not yet switched to.
 *
 * @param pack       the new pack
 * @param size       its size
 * @param oldOffsets where each file was in the old pack (it is switched only if it is still there)
 * @param locations  where each file is in the new pack
 */
public record PackCopy(Digest pack, long size, Map<Digest, Long> oldOffsets, Map<Digest, FileLocation> locations) {

    public PackCopy {
        oldOffsets = Map.copyOf(oldOffsets);
        locations = Map.copyOf(locations);
    }
}
