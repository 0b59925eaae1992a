package dev.layerfold.storage.metadata;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * Tags: mutable names for manifests. Concurrent writers of the same tag are safe; the last write
 * wins and a reader sees either the old or the new digest, never anything else.
 */
public interface TagStore {

    void putTag(RepositoryName repository, String tag, Digest manifest) throws IOException;

    Optional<Digest> tag(RepositoryName repository, String tag) throws IOException;

    /** Returns false if the tag did not exist. */
    boolean deleteTag(RepositoryName repository, String tag) throws IOException;

    /** Up to {@code limit} tags of the repository in lexical order, strictly after {@code after} if given. */
    List<String> tags(RepositoryName repository, Optional<String> after, int limit) throws IOException;
}
