package dev.layerfold.storage.predictor;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;

/** An image as clients pull it: a manifest (an image manifest or an index) of a repository. */
public record ImageRef(RepositoryName repository, Digest manifest) {

    @Override
    public String toString() {
        return repository + "@" + manifest;
    }
}
