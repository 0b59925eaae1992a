package dev.layerfold.predictor;

import dev.layerfold.predictor.tier.LayerTier;
import dev.layerfold.storage.Digest;
import java.util.List;
import java.util.Optional;

/** The memory tier and the disk tier, asked in that order. */
public final class Tiers {

    private final LayerTier memory;
    private final LayerTier disk;

    public Tiers(LayerTier memory, LayerTier disk) {
        this.memory = memory;
        this.disk = disk;
    }

    List<LayerTier> inOrder() {
        return List.of(memory, disk);
    }

    boolean holds(Digest layer) {
        return memory.holds(layer) || disk.holds(layer);
    }

    /**
     * Where a layer goes: a rebuilt one to disk (it cost a rebuild, so it is worth the larger, longer
     * lived tier; DupHunter's preconstruct cache is on disk too), an intact one to memory when it fits
     * there; else disk; empty if neither admits its size.
     */
    Optional<LayerTier> forLayer(long size, boolean rebuilt) {
        for (LayerTier tier : rebuilt ? List.of(disk, memory) : List.of(memory, disk)) {
            if (tier.admits(size)) {
                return Optional.of(tier);
            }
        }
        return Optional.empty();
    }

    /** Drops layers fetched ahead and never asked for within their hold; returns their bytes. */
    public long dropStale() {
        return memory.dropStale() + disk.dropStale();
    }
}
