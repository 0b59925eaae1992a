package dev.layerfold.predictor;

import dev.layerfold.storage.predictor.ImageContents;
import dev.layerfold.storage.predictor.UserHistory;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Which of an image's layers a client will GET after fetching the manifest: those it never pulled (or
 * pulled so long ago that it has surely dropped them), and those it holds if it is likely to pull them
 * again. Most likely first, and among equals the smaller first, so that when the tiers' room runs out
 * the most likely GETs are the ones covered.
 */
final class Predictor {

    private final double threshold;

    /** @param threshold the least probability of a GET worth fetching a layer for */
    Predictor(double threshold) {
        this.threshold = threshold;
    }

    /** A layer predicted to be pulled, with how likely that is. */
    record Predicted(ImageContents.Layer layer, double probability) {
    }

    List<Predicted> predict(List<ImageContents.Layer> layers, UserHistory history) {
        double repull = RepullEstimate.probability(history.user(), history.image());
        List<Predicted> predicted = new ArrayList<>();
        for (ImageContents.Layer layer : layers) {
            double probability = history.pulls().containsKey(layer.digest()) ? repull : 1.0;
            if (probability >= threshold) {
                predicted.add(new Predicted(layer, probability));
            }
        }
        predicted.sort(Comparator.comparingDouble(Predicted::probability).reversed()
                .thenComparingLong(p -> p.layer().size()));
        return predicted;
    }
}
