package dev.layerfold.dedup.pipeline;

import dev.layerfold.storage.dedup.LayerHeat;
import dev.layerfold.storage.dedup.LayerPulls;
import dev.layerfold.storage.dedup.TakenTask;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;

/**
 * The order of dedup work: cold layers first. A layer pulled at least {@code hotPulls} times per
 * {@link LayerPulls#HALF_LIFE} (decayed) when a worker first takes it is put back for
 * {@code deferral}, so layers nobody pulls, whose thinning frees space without making any pull rebuild,
 * are done before it; in {@code selective} mode a hot layer keeps its blob anyway, so its split can wait.
 * A layer is deferred at its first delivery only: at its next it is deduplicated however hot it is, so
 * every queued layer is decided, and a perpetually hot one costs one deferral.
 */
public final class ColdFirst {

    /** First in, first out: what tools and benchmarks that run the worker alone use. */
    public static final ColdFirst NEVER = new ColdFirst(null, 0, Duration.ZERO);

    private final LayerPulls pulls;
    private final double hotPulls;
    private final Duration deferral;

    public ColdFirst(LayerPulls pulls, double hotPulls, Duration deferral) {
        this.pulls = pulls;
        this.hotPulls = hotPulls;
        this.deferral = deferral;
    }

    /** How long to put the task back for, if its layer's turn is after the cold ones'. */
    Optional<Duration> deferral(TakenTask task) throws IOException {
        if (pulls == null || task.deliveries() != 1) {
            return Optional.empty();
        }
        Optional<LayerHeat> heat = pulls.heat(task.task().layer());
        return heat.isPresent() && heat.get().pullsAt(pulls.nowMillis()) >= hotPulls ? Optional.of(deferral) : Optional.empty();
    }
}
