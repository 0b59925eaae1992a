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
 *       {@code keepRestored}, so a layer pulled by many nodes at once is rebuilt once, not per pull;</li>
 *   <li>{@code budgeted} mode: the layers an {@link IntactCopyBudget} holds keep (or get) a copy, and
 *       no other; the sweeper rebuilds the most pulled layers ahead into the budget's room, those
 *       pulled at least {@code hotPulls} times ({@link #AHEAD_LEAST_PULLS} in the server).</li>
 * </ul>
 */
public final class IntactCopyPolicy {

    /** Every deduplicated layer is thinned and no copy is kept: what tools and benchmarks that run the worker alone use. */
    public static final IntactCopyPolicy NO_COPIES = new IntactCopyPolicy(null, false, 0, Duration.ZERO);

    private final LayerPulls pulls;
    private final boolean selective;
    private final double hotPulls;
    private final Duration keepRestored;
    private final IntactCopyBudget budget;

    /** @param pulls read only in {@code selective} mode */
    public IntactCopyPolicy(LayerPulls pulls, boolean selective, double hotPulls, Duration keepRestored) {
        this(pulls, selective, hotPulls, keepRestored, null);
    }

    /**
     * The least pulls (decayed) a layer needs in mode {@code budgeted} to be rebuilt ahead: one pull is
     * no evidence it will be pulled again, two are. Hot-ness there is relative, not a rate: the sweeper
     * goes hottest first and only into the budget's room, so the budget, not a threshold, bounds what
     * is rebuilt; an absolute rate per day ({@code hot-pulls}) fits a registry of one traffic volume and
     * in another rebuilds nothing (or everything) ahead.
     */
    public static final double AHEAD_LEAST_PULLS = 2;

    /** Mode {@code budgeted}: copies are what {@code budget} holds; layers pulled at least {@code leastPulls} times (decayed) are rebuilt ahead into its room. */
    public static IntactCopyPolicy budgeted(IntactCopyBudget budget, double leastPulls) {
        return new IntactCopyPolicy(null, false, leastPulls, Duration.ZERO, budget);
    }

    private IntactCopyPolicy(LayerPulls pulls, boolean selective, double hotPulls, Duration keepRestored, IntactCopyBudget budget) {
        this.budget = budget;
        this.pulls = pulls;
        this.selective = selective;
        this.hotPulls = hotPulls;
        this.keepRestored = keepRestored;
    }

    /** Whether the worker leaves the intact blob of a layer it just deduplicated. */
    public boolean keepsIntactWhenDeduplicated(Digest layer) throws IOException {
        if (budget != null) {
            return budget.holds(layer);
        }
        if (!selective) {
            return false;
        }
        Optional<LayerHeat> heat = pulls.heat(layer);
        return heat.isPresent() && hot(heat.get(), pulls.nowMillis());
    }

    /** Whether deduplicated {@code layer}, pulled {@code heat}, keeps its intact copy at {@code nowMillis}. */
    public boolean keepsCopy(Digest layer, long size, LayerHeat heat, long nowMillis) {
        if (budget != null) {
            if (!budget.holds(layer)) {
                budget.adopt(layer, size); // a copy it does not know of (written before a restart): the policy judges it
            }
            return budget.holds(layer);
        }
        return keepsCopy(heat, nowMillis);
    }

    /** Whether a deduplicated layer with pulls {@code heat} keeps (or should get) an intact copy at {@code nowMillis}. */
    public boolean keepsCopy(LayerHeat heat, long nowMillis) {
        return hot(heat, nowMillis) || nowMillis - heat.lastPullMillis() < keepRestored.toMillis();
    }

    /** Whether a deduplicated layer of {@code size} without a copy should be rehydrated (in budgeted mode: rebuilt ahead). */
    public boolean rehydrates(long size, LayerHeat heat, long nowMillis) {
        if (budget != null) {
            return heat.pullsAt(nowMillis) >= hotPulls && budget.freeBytes() >= size;
        }
        return hot(heat, nowMillis);
    }

    /** Whether a deduplicated layer without a copy should be rehydrated. */
    public boolean rehydrates(LayerHeat heat, long nowMillis) {
        return hot(heat, nowMillis);
    }

    /** The budget of mode {@code budgeted}, if this is it. */
    public Optional<IntactCopyBudget> budget() {
        return Optional.ofNullable(budget);
    }

    private boolean hot(LayerHeat heat, long nowMillis) {
        return selective && heat.pullsAt(nowMillis) >= hotPulls;
    }
}
