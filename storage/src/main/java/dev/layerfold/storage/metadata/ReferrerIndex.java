package dev.layerfold.storage.metadata;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import java.io.IOException;
import java.util.List;

/** Manifests whose {@code subject} names another manifest, for the referrers API. */
public interface ReferrerIndex {

    /** Records that {@code referrer} (a manifest in the repository) refers to {@code subject}; idempotent. */
    void addReferrer(RepositoryName repository, Digest subject, Descriptor referrer) throws IOException;

    /** Referrers of the subject in the repository, ordered by referrer digest. */
    List<Descriptor> referrers(RepositoryName repository, Digest subject) throws IOException;

    /** Returns false if there was no such referrer. */
    boolean removeReferrer(RepositoryName repository, Digest subject, Digest referrer) throws IOException;
}
