package dev.layerfold.predictor;

import dev.layerfold.storage.predictor.UserHistory.RepullCounts;

/**
 * How likely a user is to pull again a layer it already holds, learned per user and per image instead
 * of one fixed threshold (DupHunter's). Clients split into pull-once and always-pull kinds (DupHunter
 * §3.3, IBM traces: half the clients repull under 20% of the time), so a user's own record decides once
 * it has some; until then the image's record over all its users stands in, and until that has some,
 * a prior of 0.2. Each level is shrunk towards the next by {@link #PRIOR_WEIGHT} pseudo-offers.
 */
final class RepullEstimate {

    /** The share of held layers pulled again by a client nobody knows anything about. */
    static final double PRIOR = 0.2;

    /** How many offers of its own a user or image needs before its record outweighs the level above. */
    static final double PRIOR_WEIGHT = 4;

    private RepullEstimate() {
    }

    static double probability(RepullCounts user, RepullCounts image) {
        double forImage = shrink(image, PRIOR);
        return shrink(user, forImage);
    }

    private static double shrink(RepullCounts counts, double towards) {
        double repulled = Math.min(counts.repulled(), counts.offered());
        return (repulled + PRIOR_WEIGHT * towards) / (counts.offered() + PRIOR_WEIGHT);
    }
}
