package dev.layerfold.storage.usage;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What each repository costs, kept current as manifests are pushed and deleted and layers are
 * deduplicated, so that reading it never walks the bucket. Checked for every implementation by
 * {@code RepositoryUsageContract}; every method is atomic and safe across processes.
 *
 * <p>A repository holds the distinct blobs (configs and layers) its linked manifests name. Each blob
 * has a logical size (as pushed) and a stored size: its size while intact, or after deduplication what
 * its deduplication stored (its record and the files it was the first layer to store). A blob one
 * repository alone holds is <em>exclusive</em> to it; deleting the repository frees the stored bytes of
 * its exclusive blobs. That is exact at layer level; at file level it counts a file with the layer that
 * first stored it (a file first stored by a layer of this repository and reused by another
 * repository's layer is counted as freed; docs/design.md, "Per-repository accounting").
 */
public interface RepositoryUsage {

    /**
     * Records that {@code manifest}, linked (or about to be) in {@code repository}, names {@code blobs}
     * (digest to size as pushed). Counts one push the first time; idempotent after that.
     */
    void referenced(RepositoryName repository, Digest manifest, Map<Digest, Long> blobs) throws IOException;

    /** Removes what {@code manifest} holds in {@code repository}; nothing if it holds nothing. */
    void unreferenced(RepositoryName repository, Digest manifest) throws IOException;

    /** The blob's stored bytes are now {@code storedBytes} (a dedup worker committed it, or its intact copy came back). */
    void stored(Digest blob, long storedBytes) throws IOException;

    /** Adds pulls (manifest GETs) counted per repository since the last call. */
    void pulled(Map<RepositoryName, Long> pulls) throws IOException;

    /** One repository's figures; empty if nothing was ever pushed to it. */
    Optional<Usage> usage(RepositoryName repository) throws IOException;

    /** A page of repositories in {@code order}: from {@code offset}, at most {@code limit}. */
    List<Usage> page(UsageOrder order, int offset, int limit) throws IOException;

    /** The registry's figures, every blob counted once however many repositories hold it. */
    UsageTotals totals() throws IOException;

    /** Whether the figures cover every linked manifest (false: a rebuild from the manifests is due). */
    boolean complete() throws IOException;

    /** Forgets every figure (pushes and pulls too), before a rebuild. */
    void clear() throws IOException;

    /** Marks the figures complete, after a rebuild that began after {@link #clear()}. */
    void markComplete() throws IOException;
}
