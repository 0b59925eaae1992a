package dev.layerfold.storage.dedup;

/**
 * How often a layer is pulled: a count of pulls that halves every {@link LayerPulls#HALF_LIFE}, as it
 * stood at {@code atMillis}, and when it was last pulled (milliseconds, the store's clock).
 */
public record LayerHeat(double pulls, long atMillis, long lastPullMillis) {

    /** The decayed count at {@code nowMillis}. */
    public double pullsAt(long nowMillis) {
        double halfLives = Math.max(0, nowMillis - atMillis) / (double) LayerPulls.HALF_LIFE.toMillis();
        return pulls * Math.pow(0.5, halfLives);
    }

    /** This heat with {@code added} more pulls at {@code nowMillis}. */
    public LayerHeat plus(long added, long nowMillis) {
        return new LayerHeat(pullsAt(nowMillis) + added, Math.max(atMillis, nowMillis), Math.max(lastPullMillis, nowMillis));
    }
}
