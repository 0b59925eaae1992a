package dev.layerfold.registry.api;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;

/**
 * Told about every manifest and blob the API serves to a client, for whoever learns from pulls (the
 * predictor). Called on the request's thread after the response's headers are set: an implementation
 * must return at once and never throw.
 */
public interface PullListener {

    /** A {@code GET} of a manifest (an image manifest or an index), resolved to its digest. */
    void manifestPulled(Puller puller, RepositoryName repository, Digest manifest);

    /** A {@code GET} of a blob that is answered with its bytes from the first (whole, or a range from byte 0). */
    void blobPulled(Puller puller, RepositoryName repository, Digest blob);
}
