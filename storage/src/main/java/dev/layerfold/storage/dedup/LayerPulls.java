package dev.layerfold.storage.dedup;

import dev.layerfold.storage.Digest;
import java.io.IOException;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;

/**
 * How often each blob is pulled, across every process: what the {@code selective} dedup mode keeps hot
 * layers intact by, what decides when a restored layer's intact copy may go, and what the predictor
 * reads. Checked for every implementation by {@code LayerPullsContract}.
 *
 * <p>Processes count pulls in memory and add them in batches, so a pull costs no store write; each
 * batch is atomic per layer, so concurrent batches never lose counts. Counts decay (they halve every
 * {@link #HALF_LIFE}), so a layer that was popular once cools by itself, and layers neither pulled nor
 * warm are {@linkplain #forget forgotten}: the map is bounded by the layers in use.
 */
public interface LayerPulls {

    Duration HALF_LIFE = Duration.ofDays(1);

    /** Adds pulls of each layer, counted since the last call, at the store's clock. */
    void record(Map<Digest, Long> pulls) throws IOException;

    Optional<LayerHeat> heat(Digest layer) throws IOException;

    /** Every layer with a count, for the sweeps that act on heat. */
    Map<Digest, LayerHeat> all() throws IOException;

    /** The store's clock, in milliseconds, to decay counts against. */
    long nowMillis() throws IOException;

    /** Forgets the counts of these layers, unless they were pulled after {@code pulledBeforeMillis}. */
    void forget(Collection<Digest> layers, long pulledBeforeMillis) throws IOException;
}
