package dev.layerfold.storage.gc;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import java.io.IOException;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What the garbage collector judges blobs by, kept in the metadata store beside the links so that
 * the API and the collector meet in its atomic operations (the protocol is in docs/design.md,
 * "Garbage collection"). Checked for every implementation by {@code GcIndexContract}; every method is
 * atomic and safe across processes. Times are the store's clock (Redis: its {@code TIME}), so the
 * clocks of the registry processes do not matter.
 *
 * <ul>
 *   <li>A digest is <em>referenced</em> while some linked manifest of some repository names it
 *       ({@link #reference}); referenced digests are never condemned.</li>
 *   <li>A digest is a <em>candidate</em> from its last {@link #touch} (upload, mount) or the removal
 *       of its last reference, and may be condemned once that is older than the grace period.</li>
 *   <li>A <em>condemned</em> digest is being deleted: {@link #touch} and {@link #reference} refuse it
 *       until the collector {@linkplain #bury buries} it or the mark is {@link #CONDEMNATION_LIFETIME}
 *       old (its collector died).</li>
 * </ul>
 */
public interface GcIndex {

    /** How long a condemnation holds; a collector deletes only within the first half of it. */
    Duration CONDEMNATION_LIFETIME = Duration.ofMinutes(2);

    /**
     * Records that the digest's bytes are about to be published or linked into {@code repository}
     * (upload, mount, manifest bytes): it becomes a candidate from now, and the repository is remembered
     * so that its link goes with the bytes. False, changing nothing, while it is condemned.
     */
    boolean touch(RepositoryName repository, Digest digest) throws IOException;

    /**
     * Records that what the registry keeps for the digest is about to grow without its bytes being
     * published or linked (a dedup worker about to commit the layer's files and recipe): it becomes a
     * candidate from now, so no condemnation can follow within the grace period, and one that came
     * before is seen. False, changing nothing, while it is condemned.
     */
    boolean touch(Digest digest) throws IOException;

    /**
     * Records that {@code manifest}, linked (or about to be) in {@code repository}, references each of
     * {@code targets}, unless one of them is condemned: then changes nothing and returns the condemned
     * ones. Idempotent; works also while the index is incomplete (references only ever keep bytes).
     */
    Set<Digest> reference(RepositoryName repository, Digest manifest, Collection<Digest> targets) throws IOException;

    /**
     * Removes every reference {@code manifest} holds in {@code repository}; its targets become candidates
     * from now. Finishes the {@linkplain #releasing release} recorded for it.
     */
    void unreference(RepositoryName repository, Digest manifest) throws IOException;

    /**
     * Records, before {@code manifest} is unlinked from {@code repository}, that its references are to go.
     * A delete killed between its unlink and its {@link #unreference} would otherwise leave them for good,
     * and with them every blob they name; the collector finishes such a release. A {@link #reference}
     * by the same manifest in the same repository (pushed again) cancels it.
     */
    void releasing(RepositoryName repository, Digest manifest) throws IOException;

    /** Releases recorded at least {@code age} ago that neither an unreference nor a reference ended, up to {@code limit}. */
    List<Release> unfinishedReleases(Duration age, int limit) throws IOException;

    /**
     * The collector found the release's manifest no longer linked: unreferences it as {@link #unreference}
     * does, unless the release was ended or recorded anew since it was read (then changes nothing).
     */
    void finishRelease(Release release) throws IOException;

    /** The collector found the release's manifest still linked (its delete never unlinked it): forgets the release as it was read. */
    void dropRelease(Release release) throws IOException;

    /**
     * When {@code manifest} first recorded references in {@code repository} (when it was pushed there),
     * in the store's milliseconds; empty if it holds none. Retention orders images by it.
     */
    Optional<Long> referencedSince(RepositoryName repository, Digest manifest) throws IOException;

    /** How many (repository, manifest) pairs reference the digest. */
    long references(Digest target) throws IOException;

    /**
     * Makes a digest nothing knows (not referenced, not a candidate, not condemned) a candidate since
     * {@code sinceMillis}: how the collector's sweep hands over an object it found in the bucket that no
     * index names, stored at that time. False, changing nothing, if the index knows the digest; an upload
     * touching it later makes it a candidate from then, as for any blob.
     */
    boolean nominate(Digest digest, long sinceMillis) throws IOException;

    /** Where the collector's sweep of the bucket stopped: it goes on after this digest; empty to start over. */
    Optional<Digest> sweptUpTo() throws IOException;

    void sweptUpTo(Optional<Digest> digest) throws IOException;

    /** Up to {@code limit} candidates that became so at least {@code grace} ago, oldest first. */
    List<Digest> candidates(Duration grace, int limit) throws IOException;

    /**
     * Atomically marks the candidate condemned if nothing references it, it became a candidate at least
     * {@code grace} ago, and the index has been complete for at least {@code grace}. A referenced digest
     * stops being a candidate. Empty if it was not condemned.
     */
    Optional<Condemnation> condemn(Digest digest, Duration grace) throws IOException;

    /**
     * Whether the condemnation still stands and is young enough (under half its lifetime) to delete
     * by: the collector asks right before each delete.
     */
    boolean stillCondemned(Condemnation condemnation) throws IOException;

    /** The condemned digest's bytes are gone: forgets the mark, the candidate and the repositories it was linked in. */
    void bury(Condemnation condemnation) throws IOException;

    /**
     * The state of the index's knowledge: complete (every linked manifest's references are recorded)
     * since when, in the store's milliseconds; empty if it must first be {@linkplain #markComplete rebuilt}.
     */
    Optional<Long> completeSince() throws IOException;

    /**
     * What the index's completeness depends on (Redis: which servers hold it); a rebuild reads it
     * before it starts and passes it to {@link #markComplete}.
     */
    String generation() throws IOException;

    /**
     * Records that the references of every linked manifest are now recorded: since the store's time
     * now, or since ever ({@code sinceEver}: the registry held nothing when the rebuild began, so no
     * touch can have been lost). False if the generation changed meanwhile (the rebuild must run again).
     */
    boolean markComplete(String generation, boolean sinceEver) throws IOException;

    /** A manifest's references recorded as going at {@code atMillis} (the store's clock). */
    record Release(RepositoryName repository, Digest manifest, long atMillis) {
    }

    /** A digest the collector may delete, marked at {@code atMillis}; {@code linkedIn} names its links to remove. */
    record Condemnation(Digest digest, long atMillis, Set<RepositoryName> linkedIn) {
        public Condemnation {
            linkedIn = Set.copyOf(linkedIn);
        }
    }
}
