package dev.layerfold.storage.dedup;

import dev.layerfold.storage.Digest;
import java.io.IOException;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the dedup pipeline knows: where each unique file is stored, how many deduplicated layers
 * reference it, and what became of each layer. Checked for every implementation by
 * {@code DedupIndexContract}; every method is atomic and safe across processes.
 *
 * <p>The rules that keep every deduplicated layer restorable:
 * <ul>
 *   <li>A file is stored once: a worker stores only files it {@linkplain #claimFiles claimed}, and a
 *       claim is held by one worker until it records the file or the claim expires.</li>
 *   <li>A layer becomes deduplicated only by {@link #commitLayer}, which counts a reference to each
 *       of its files in the same atomic step, and only if every one of them is still stored.</li>
 *   <li>{@link #releaseLayer} gives those references back. A file with no reference may be reclaimed
 *       (its pack rewritten) by {@link #forgetUnreferenced}, which in the same atomic step re-checks
 *       that nothing references it, so a commit racing it either keeps the file or fails.</li>
 *   <li>A pack is rewritten by copying its live files into a new pack and {@linkplain #relocate switching}
 *       their locations in one step; the old pack is then <em>retired</em> and deleted a grace period
 *       later, under a {@linkplain #condemnPack mark} that {@link #packStored} refuses, so a worker that
 *       writes the same pack bytes again never has them deleted under it (docs/design.md, "Pack rewriting").</li>
 * </ul>
 */
public interface DedupIndex {

    /** Where a file (named by its sha256) is stored, if it is. */
    Optional<FileLocation> file(Digest file) throws IOException;

    /**
     * Where each of {@code files} is stored, for those that are (the others are absent from the
     * answer): {@link #file} for many files in a few round trips, as a dedup worker asks for the files
     * of a layer. Not atomic across the files; each answer is as of some moment during the call.
     */
    Map<Digest, FileLocation> files(Collection<Digest> files) throws IOException;

    /**
     * Claims each file that is neither stored nor claimed by another worker, for {@code ttl}. A claim
     * {@code worker} already holds is extended.
     */
    Map<Digest, FileClaim> claimFiles(Collection<Digest> files, String worker, Duration ttl) throws IOException;

    /**
     * Records files written to a pack of {@code packSize} bytes, and drops their claims. A file
     * recorded already keeps its first location (the later copy is garbage in its pack). The pack's
     * bytes count as stored from here on, once however often it is recorded, whether or not a layer
     * is ever committed with it: that is what the storage holds. A retired pack stored again is no longer
     * retired.
     *
     * @throws PackCondemnedException if the pack is being deleted (a worker wrote bytes identical to a
     *                                pack the collector is deleting): the worker tries the layer again later
     */
    void packStored(Digest pack, long packSize, Map<Digest, FileLocation> files) throws IOException;

    /**
     * Packs whose {@linkplain PackUse#liveShare live share} is below {@code liveShare}, fewest live bytes
     * first, up to {@code limit}. The dead bytes are those of files {@link #forgetUnreferenced} forgot.
     */
    List<PackUse> sparsePacks(double liveShare, int limit) throws IOException;

    /**
     * Atomically, if {@code from} is a stored pack and no files were recorded in it since
     * {@code generation} ({@link PackUse#generation}): every file of the copy whose location is still
     * its old offset in {@code from} now lives at its location in the copy's pack, which counts as stored
     * instead of {@code from}; {@code from} is retired from now (the store's clock). Files forgotten
     * meanwhile are not moved (their bytes in the copy count as dead). With no copy (nothing in
     * {@code from} was live), {@code from} is only retired. False, changing nothing, otherwise.
     */
    boolean relocate(Digest from, long generation, Optional<PackCopy> copy) throws IOException;

    /** Packs retired before {@code retiredBeforeMillis} (the store's clock) and not stored again since, up to {@code limit}. */
    List<Digest> retiredPacks(long retiredBeforeMillis, int limit) throws IOException;

    /**
     * Marks a pack the index does not count as stored (retired before {@code retiredBeforeMillis}, or
     * never recorded) as being deleted: {@link #packStored} refuses it for {@link #PACK_CONDEMNATION_LIFETIME}
     * or until {@link #buryPack}. False if it is stored, retired since, or marked already by a mark still valid.
     */
    boolean condemnPack(Digest pack, long retiredBeforeMillis) throws IOException;

    /** The condemned pack's bytes are gone: forgets its mark and that it was retired. */
    void buryPack(Digest pack) throws IOException;

    /** How long a pack's condemnation holds; the collector deletes only within the first half of it. */
    Duration PACK_CONDEMNATION_LIFETIME = Duration.ofMinutes(2);

    Optional<LayerState> layer(Digest layer) throws IOException;

    /** Records that a layer stays intact; a layer already deduplicated stays deduplicated. */
    void keepIntact(Digest layer, String reason) throws IOException;

    /**
     * Atomically: if every file in {@code files} is stored, counts one reference to each and records
     * the layer as deduplicated; otherwise changes nothing and returns false. Committing a layer that
     * is deduplicated already changes nothing and returns true.
     */
    boolean commitLayer(Digest layer, LayerState.Deduplicated state, Collection<Digest> files) throws IOException;

    /**
     * Atomically forgets a deduplicated layer and gives back the references it held on
     * {@code files} (the same files it was committed with); false if it was not deduplicated.
     */
    boolean releaseLayer(Digest layer, Collection<Digest> files) throws IOException;

    /** How many deduplicated layers reference the file. */
    long references(Digest file) throws IOException;

    /**
     * Forgets the location of each given file that no layer references and that was stored before
     * {@code storedBefore} milliseconds (so a file stored for a layer not yet committed is kept);
     * returns the files forgotten. Their bytes may then be removed from their packs.
     */
    Collection<Digest> forgetUnreferenced(Collection<Digest> files, long storedBeforeMillis) throws IOException;

    /**
     * Files no layer references that were stored before {@code storedBeforeMillis}, oldest first, up to
     * {@code limit}: those a release left because they were young then, and those a worker stored for
     * a layer it never committed (it was killed, and the layer was deleted before its task came again).
     * The collector hands them to {@link #forgetUnreferenced}, which judges each again.
     */
    List<Digest> unreferencedFiles(long storedBeforeMillis, int limit) throws IOException;

    DedupTotals totals() throws IOException;
}
