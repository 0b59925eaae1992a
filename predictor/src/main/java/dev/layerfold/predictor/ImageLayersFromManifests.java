package dev.layerfold.predictor;

import dev.layerfold.registry.manifest.StoredManifests;
import dev.layerfold.storage.predictor.ImageContents;
import dev.layerfold.storage.predictor.ImageLayers;
import dev.layerfold.storage.predictor.ImageRef;
import java.io.IOException;
import java.util.Optional;

/**
 * ILmap that mends itself from the manifests: an image it has no entry for is read from its stored
 * manifest (the bucket is the system of record) and recorded, so a Redis that lost the map, or a
 * registry that ran with the predictor off while images were pushed, predicts again from each image's
 * first manifest GET on, at the cost of one manifest read per image, off the request path. An image
 * that is not linked stays unknown.
 */
public final class ImageLayersFromManifests implements ImageLayers {

    private final ImageLayers map;
    private final StoredManifests manifests;

    public ImageLayersFromManifests(ImageLayers map, StoredManifests manifests) {
        this.map = map;
        this.manifests = manifests;
    }

    @Override
    public void put(ImageRef image, ImageContents contents) throws IOException {
        map.put(image, contents);
    }

    @Override
    public Optional<ImageContents> get(ImageRef image) throws IOException {
        Optional<ImageContents> known = map.get(image);
        if (known.isPresent()) {
            return known;
        }
        Optional<ImageContents> read = manifests.contents(image);
        if (read.isPresent()) {
            map.put(image, read.get());
            // A delete between the read and the put removed the entry before it was written: take it out again.
            if (!manifests.linked(image)) {
                map.remove(image);
            }
        }
        return read;
    }

    @Override
    public void remove(ImageRef image) throws IOException {
        map.remove(image);
    }
}
