package dev.layerfold.gc;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import java.util.List;

/**
 * What a check of the whole registry found.
 *
 * @param problemCount every problem found; {@code problems} lists the first {@link RegistryCheck#LISTED} of them
 * @param repaired     problems the check fixed (with repair on)
 */
public record CheckReport(long repositories, long tags, long manifests, long blobs, long deduplicatedLayers,
                          long files, long problemCount, List<Problem> problems, long repaired) {

    public CheckReport {
        problems = List.copyOf(problems);
    }

    /** One thing wrong, where, and whether the check repaired it. */
    public record Problem(Kind kind, RepositoryName repository, Digest digest, String detail, boolean repaired) {
    }

    public enum Kind {
        /** A tag names a manifest the repository does not link, or whose bytes are gone. */
        TAG_UNRESOLVED,
        /** A linked manifest's bytes are gone. */
        MANIFEST_MISSING,
        /** A blob a manifest names is neither stored intact nor rebuildable. */
        BLOB_MISSING,
        /** A manifest an index names is not linked in the repository. */
        CHILD_MANIFEST_MISSING,
        /** A manifest's reference is missing from the GC index (repairable: recorded again). */
        REFERENCE_MISSING,
        /** A deduplicated layer's record or one of its files is gone, damaged, or placed elsewhere than the index says. */
        FILE_PROBLEM,
        /** A file's reference count differs from the number of deduplicated layers the manifests reach that hold it. */
        COUNT_MISMATCH
    }
}
