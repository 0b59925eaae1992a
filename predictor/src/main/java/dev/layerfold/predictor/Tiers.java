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
     * Where a layer goes: to memory when it is small enough for it, else to disk; empty if neither
     * admits its size. Rebuilt and intact layers alike: DupHunter keeps rebuilt layers on disk only,
     * but a replay of generated traces (the predictor benchmark) showed the memory tier then serving
     * nothing where most layers are deduplicated.
     */
    Optional<LayerTier> forLayer(long size) {
        for (LayerTier tier : inOrder()) {
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
