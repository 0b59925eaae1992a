package dev.layerfold.storage.predictor;

/** A metadata backend that also keeps the predictor's maps, shared by every process on it. */
public interface PredictorStorage {

    ImageLayers imageLayers();

    PullHistory pullHistory(PullHistoryLimits limits);
}
