package dev.layerfold.dedup.pipeline;

import dev.layerfold.dedup.codec.io.LayerFormatException;

/** A layer that would cost more than the {@link DedupLimits} allow; it stays intact. */
final class LayerTooCostlyException extends LayerFormatException {
    LayerTooCostlyException(String message) {
        super(message);
    }
}
