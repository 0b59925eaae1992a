package dev.layerfold.storage.gc;

import dev.layerfold.storage.Digest;
import java.util.Collection;

/**
 * What a stored manifest references (its config, layers and the manifests an index lists): the seam
 * through which the collector rebuilds references, since manifest formats are the API's business.
 */
@FunctionalInterface
public interface ManifestTargets {

    /** The digests the manifest's bytes name, as it was pushed with {@code mediaType}. */
    Collection<Digest> of(byte[] manifest, String mediaType);
}
