package dev.layerfold.storage.predictor;

import dev.layerfold.storage.Digest;
import java.util.Map;
import java.util.Optional;

/**
 * What the pull history knows about a user, as the predictor reads it at a manifest fetch.
 *
 * @param pulls the layers asked about that the user holds, with its pulls of each
 * @param user the user's repull counters
 * @param image the image's repull counters, over all its users
 * @param lastImage the image the user fetched before this one, if any
 * @param platform the platform the user chose last from an index, or empty
 */
public record UserHistory(Map<Digest, LayerPulls> pulls, RepullCounts user, RepullCounts image,
                          Optional<ImageRef> lastImage, String platform) {

    public UserHistory {
        pulls = Map.copyOf(pulls);
    }

    /** How many times the user pulled a layer, and when last (milliseconds since the epoch). */
    public record LayerPulls(long count, long lastMillis) {
    }

    /** Of {@code offered} chances to pull again a layer already held, {@code repulled} were taken. */
    public record RepullCounts(long offered, long repulled) {
        public static final RepullCounts NONE = new RepullCounts(0, 0);
    }
}
