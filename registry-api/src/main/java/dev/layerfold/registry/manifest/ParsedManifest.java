package dev.layerfold.registry.manifest;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.predictor.ImageContents;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the registry needs to know about a pushed manifest to accept and index it.
 *
 * @param mediaType the manifest's format, as pushed
 * @param blobs blobs it references that the repository must hold (config and distributable layers)
 * @param manifests manifests an index references, which the repository must hold
 * @param subject the manifest this one refers to, for the referrers API
 * @param artifactType its artifact type as the referrers API reports it (for an image manifest
 *     without one: its config's media type); null if none
 * @param annotations its annotations, never null
 * @param layers the layers of an image manifest, in order, as their descriptors give them (the dedup
 *     pipeline decides from the media type whether it can split one)
 * @param contents its layers, or an index's manifests with their platforms, as the predictor maps them
 */
record ParsedManifest(String mediaType, List<Digest> blobs, List<Digest> manifests, Optional<Digest> subject,
                      String artifactType, Map<String, String> annotations, List<Layer> layers,
                      ImageContents contents) {

    record Layer(String mediaType, Digest digest, long size) {
    }
}
