package dev.layerfold.storage.predictor;

import java.time.Duration;

/**
 * How much of the pull history is kept (see {@link PullHistory}).
 *
 * @param forgetAfter a layer (and a user) not seen for this long is forgotten
 * @param layersPerUser most layers remembered per user
 * @param decayAt the repull counters halve when the offers reach this
 */
public record PullHistoryLimits(Duration forgetAfter, int layersPerUser, long decayAt) {

    public static final PullHistoryLimits DEFAULT = new PullHistoryLimits(Duration.ofDays(30), 10_000, 1_000);

    public PullHistoryLimits {
        if (forgetAfter.isNegative() || forgetAfter.isZero() || layersPerUser < 1 || decayAt < 2) {
            throw new IllegalArgumentException("pull history limits must be positive (decayAt at least 2): "
                    + forgetAfter + ", " + layersPerUser + ", " + decayAt);
        }
    }
}
