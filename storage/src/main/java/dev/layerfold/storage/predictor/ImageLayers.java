package dev.layerfold.storage.predictor;

import java.io.IOException;
import java.util.Optional;

/**
 * ILmap: each pushed manifest's layers (or an index's platform manifests), written when the manifest
 * is pushed. Its size follows the manifests stored: an entry is removed with its manifest. Checked for
 * every implementation by {@code PredictorMapsContract}.
 */
public interface ImageLayers {

    /** Records (or replaces: a manifest's contents never change under its digest) what an image holds. */
    void put(ImageRef image, ImageContents contents) throws IOException;

    Optional<ImageContents> get(ImageRef image) throws IOException;

    /** Forgets the image; a no-op if it is unknown. */
    void remove(ImageRef image) throws IOException;
}
