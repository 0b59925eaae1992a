package dev.layerfold.dedup.pipeline;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.dedup.LayerHeat;
import dev.layerfold.storage.dedup.LayerPulls;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;

/**
 * When a deduplicated layer also keeps an intact copy, decided by how it is pulled. A deduplicated
 * layer always has its proven recipe, so it moves between the two states cheaply: thinning deletes the
 * copy, rehydrating rebuilds it once.
 * <ul>
 *   <li>{@code selective} mode: a layer pulled at least {@code hotPulls} times per
 *       {@link LayerPulls#HALF_LIFE} (decayed) is hot and stays intact: the worker deduplicates it but
 *       keeps its blob, and a deduplicated layer that turns hot is rehydrated;</li>
 *   <li>every mode: a copy a restore wrote back stays while the layer was pulled within
 *       {@code keepRestored}, so a layer pulled by many nodes at once is rebuilt once, not per pull.</li>
 * </ul>
 */
public final class IntactCopyPolicy {

    /** Every deduplicated layer is thinned and no copy is kept: what tools and benchmarks that run the worker alone use. */
    public static final IntactCopyPolicy NO_COPIES = new IntactCopyPolicy(null, false, 0, Duration.ZERO);

    private final LayerPulls pulls;
    private final boolean selective;
    private final double hotPulls;
    private final Duration keepRestored;

    /** @param pulls read only in {@code selective} mode */
    public IntactCopyPolicy(LayerPulls pulls, boolean selective, double hotPulls, Duration keepRestored) {
        this.pulls = pulls;
        this.selective = selective;
        this.hotPulls = hotPulls;
        this.keepRestored = keepRestored;
    }

    /** Whether the worker leaves the intact blob of a layer it just deduplicated. */
    public boolean keepsIntactWhenDeduplicated(Digest layer) throws IOException {
        if (!selective) {
            return false;
        }
        Optional<LayerHeat> heat = pulls.heat(layer);
        return heat.isPresent() && hot(heat.get(), pulls.nowMillis());
    }

    /** Whether a deduplicated layer with pulls {@code heat} keeps (or should get) an intact copy at {@code nowMillis}. */
    public boolean keepsCopy(LayerHeat heat, long nowMillis) {
        return hot(heat, nowMillis) || nowMillis - heat.lastPullMillis() < keepRestored.toMillis();
    }

    /** Whether a deduplicated layer without a copy should be rehydrated. */
    public boolean rehydrates(LayerHeat heat, long nowMillis) {
        return hot(heat, nowMillis);
    }

    private boolean hot(LayerHeat heat, long nowMillis) {
        return selective && heat.pullsAt(nowMillis) >= hotPulls;
    }
}
