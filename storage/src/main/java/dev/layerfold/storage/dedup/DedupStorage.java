package dev.layerfold.storage.dedup;

/**
 * A metadata backend that also keeps the dedup pipeline's queue and index, in the same store as the
 * manifests (so a manifest's layers are queued durably beside it).
 */
public interface DedupStorage {

    DedupQueue dedupQueue();

    DedupIndex dedupIndex();

    LayerPulls layerPulls();
}
