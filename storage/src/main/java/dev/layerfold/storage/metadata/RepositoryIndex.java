package dev.layerfold.storage.metadata;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * Which repositories exist and which blobs and manifests belong to each.
 *
 * <p>Blob bytes are shared across repositories; a link records that a repository may serve a
 * blob (it was pushed or mounted there). A repository exists while it has at least one link.
 * All operations are idempotent and atomic per call.
 */
public interface RepositoryIndex {

    void linkBlob(RepositoryName repository, Digest blob) throws IOException;

    boolean hasBlob(RepositoryName repository, Digest blob) throws IOException;

    /** Returns false if there was no such link. */
    boolean unlinkBlob(RepositoryName repository, Digest blob) throws IOException;

    /** Records a manifest pushed to a repository, with the media type it was pushed as. */
    void linkManifest(RepositoryName repository, ManifestRecord manifest) throws IOException;

    Optional<ManifestRecord> manifest(RepositoryName repository, Digest digest) throws IOException;

    /**
     * Up to {@code limit} manifests linked in the repository in digest order, strictly after
     * {@code after} if given: for the garbage collector's rebuild and the checker, which visit them all.
     */
    List<ManifestRecord> manifests(RepositoryName repository, Optional<Digest> after, int limit) throws IOException;

    /** Removes the manifest link and every tag of the repository pointing at it; false if absent. */
    boolean unlinkManifest(RepositoryName repository, Digest digest) throws IOException;

    boolean repositoryExists(RepositoryName repository) throws IOException;

    /** Up to {@code limit} repository names in lexical order, strictly after {@code after} if given. */
    List<RepositoryName> repositories(Optional<RepositoryName> after, int limit) throws IOException;
}
