package dev.layerfold.storage.metadata;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The {@link MetadataStore} contract. An implementation's test extends this class, supplies
 * {@link #newStore()} and {@link #reopen()}, and runs every check here.
 */
public abstract class MetadataStoreContract {

    protected static final RepositoryName REPO = RepositoryName.of("library/alpine");
    protected static final RepositoryName OTHER_REPO = RepositoryName.of("library/busybox");
    protected static final String IMAGE_MANIFEST = "application/vnd.oci.image.manifest.v1+json";

    /** Store timestamps are compared at millisecond precision, the coarsest any implementation keeps. */
    private static final Instant T0 = Instant.parse("2026-01-02T03:04:05.678Z");

    /** The store under test, fresh for every test. */
    protected MetadataStore store;

    /** A new, empty store. Called before every test. */
    protected abstract MetadataStore newStore() throws Exception;

    /** A new instance over the same backing storage as the last {@link #newStore()}, after the old one closed. */
    protected abstract MetadataStore reopen() throws Exception;

    @BeforeEach
    void createStore() throws Exception {
        store = newStore();
    }

    @AfterEach
    void closeStore() {
        store.close();
    }

    @Test
    void linkedBlobBelongsToItsRepositoryOnly() throws Exception {
        Digest blob = digest("layer");

        store.linkBlob(REPO, blob);
        store.linkBlob(REPO, blob);

        assertThat(store.hasBlob(REPO, blob)).isTrue();
        assertThat(store.hasBlob(OTHER_REPO, blob)).isFalse();
    }

    @Test
    void unlinkBlobSaysWhetherTheLinkExisted() throws Exception {
        Digest blob = digest("layer");
        store.linkBlob(REPO, blob);

        assertThat(store.unlinkBlob(REPO, blob)).isTrue();
        assertThat(store.hasBlob(REPO, blob)).isFalse();
        assertThat(store.unlinkBlob(REPO, blob)).isFalse();
    }

    @Test
    void linkedManifestKeepsItsMediaTypeAndSize() throws Exception {
        ManifestRecord manifest = new ManifestRecord(digest("manifest"), IMAGE_MANIFEST, 1234);

        store.linkManifest(REPO, manifest);

        assertThat(store.manifest(REPO, manifest.digest())).contains(manifest);
        assertThat(store.manifest(OTHER_REPO, manifest.digest())).isEmpty();
        assertThat(store.manifest(REPO, digest("unknown"))).isEmpty();
    }

    @Test
    void linkingAManifestAgainIsIdempotent() throws Exception {
        ManifestRecord manifest = new ManifestRecord(digest("manifest"), IMAGE_MANIFEST, 1234);

        store.linkManifest(REPO, manifest);
        store.linkManifest(REPO, manifest);

        assertThat(store.manifest(REPO, manifest.digest())).contains(manifest);
        assertThat(store.unlinkManifest(REPO, manifest.digest())).isTrue();
        assertThat(store.manifest(REPO, manifest.digest())).isEmpty();
    }

    @Test
    void unlinkManifestRemovesItsTagsAndOnlyThose() throws Exception {
        Digest deleted = linkManifest(REPO, "deleted");
        Digest kept = linkManifest(REPO, "kept");
        store.putTag(REPO, "v1", deleted);
        store.putTag(REPO, "latest", deleted);
        store.putTag(REPO, "v2", kept);
        linkManifest(OTHER_REPO, "deleted");
        store.putTag(OTHER_REPO, "v1", deleted);

        assertThat(store.unlinkManifest(REPO, deleted)).isTrue();

        assertThat(store.tag(REPO, "v1")).isEmpty();
        assertThat(store.tag(REPO, "latest")).isEmpty();
        assertThat(store.tag(REPO, "v2")).contains(kept);
        assertThat(store.tag(OTHER_REPO, "v1")).contains(deleted);
        assertThat(store.unlinkManifest(REPO, deleted)).isFalse();
    }

    @Test
    void unlinkManifestRemovesItFromTheReferrersOfItsSubject() throws Exception {
        Digest subject = linkManifest(REPO, "image");
        Digest signature = linkManifest(REPO, "signature");
        Digest sbom = linkManifest(REPO, "sbom");
        store.addReferrer(REPO, subject, descriptor(signature));
        store.addReferrer(REPO, subject, descriptor(sbom));

        store.unlinkManifest(REPO, signature);

        assertThat(store.referrers(REPO, subject)).extracting(Descriptor::digest).containsExactly(sbom);
    }

    @Test
    void repositoryExistsWhileItHasALink() throws Exception {
        Digest blob = digest("layer");
        assertThat(store.repositoryExists(REPO)).isFalse();

        store.linkBlob(REPO, blob);
        assertThat(store.repositoryExists(REPO)).isTrue();
        Digest manifest = linkManifest(REPO, "manifest");
        store.unlinkBlob(REPO, blob);
        assertThat(store.repositoryExists(REPO)).isTrue();

        store.unlinkManifest(REPO, manifest);
        assertThat(store.repositoryExists(REPO)).isFalse();
        assertThat(store.repositories(Optional.empty(), 10)).isEmpty();
    }

    @Test
    void repositoriesArePagedInLexicalOrder() throws Exception {
        for (String name : List.of("b", "a/z", "c", "a", "b/a")) {
            store.linkBlob(RepositoryName.of(name), digest(name));
        }

        assertThat(store.repositories(Optional.empty(), 2)).extracting(RepositoryName::value).containsExactly("a", "a/z");
        assertThat(store.repositories(Optional.of(RepositoryName.of("a/z")), 2))
                .extracting(RepositoryName::value).containsExactly("b", "b/a");
        assertThat(store.repositories(Optional.of(RepositoryName.of("b/a")), 2))
                .extracting(RepositoryName::value).containsExactly("c");
        assertThat(store.repositories(Optional.of(RepositoryName.of("c")), 2)).isEmpty();
        assertThat(store.repositories(Optional.of(RepositoryName.of("aa")), 10))
                .extracting(RepositoryName::value).containsExactly("b", "b/a", "c");
        assertThat(store.repositories(Optional.empty(), 0)).isEmpty();
    }

    @Test
    void manifestsOfARepositoryArePagedInDigestOrder() throws Exception {
        List<ManifestRecord> linked = new java.util.ArrayList<>();
        for (String name : List.of("m1", "m2", "m3")) {
            ManifestRecord manifest = new ManifestRecord(digest(name), IMAGE_MANIFEST, name.length());
            store.linkManifest(REPO, manifest);
            linked.add(manifest);
        }
        store.linkManifest(OTHER_REPO, new ManifestRecord(digest("elsewhere"), IMAGE_MANIFEST, 1));
        linked.sort(java.util.Comparator.comparing(manifest -> manifest.digest().toString()));

        assertThat(store.manifests(REPO, Optional.empty(), 2)).containsExactlyElementsOf(linked.subList(0, 2));
        assertThat(store.manifests(REPO, Optional.of(linked.get(1).digest()), 2)).containsExactly(linked.get(2));
        assertThat(store.manifests(RepositoryName.of("empty"), Optional.empty(), 2)).isEmpty();
    }

    @Test
    void tagPointsAtTheLastManifestPutUnderIt() throws Exception {
        Digest first = digest("first");
        Digest second = digest("second");

        store.putTag(REPO, "latest", first);
        store.putTag(REPO, "latest", second);

        assertThat(store.tag(REPO, "latest")).contains(second);
        assertThat(store.tag(OTHER_REPO, "latest")).isEmpty();
        assertThat(store.tag(REPO, "missing")).isEmpty();
    }

    @Test
    void deleteTagSaysWhetherTheTagExisted() throws Exception {
        store.putTag(REPO, "latest", digest("manifest"));

        assertThat(store.deleteTag(REPO, "latest")).isTrue();
        assertThat(store.tag(REPO, "latest")).isEmpty();
        assertThat(store.deleteTag(REPO, "latest")).isFalse();
    }

    @Test
    void tagsArePagedInLexicalOrderPerRepository() throws Exception {
        for (String tag : List.of("v2", "latest", "v10", "V1", "v1")) {
            store.putTag(REPO, tag, digest(tag));
        }
        store.putTag(OTHER_REPO, "other", digest("other"));

        assertThat(store.tags(REPO, Optional.empty(), 100)).containsExactly("V1", "latest", "v1", "v10", "v2");
        assertThat(store.tags(REPO, Optional.empty(), 2)).containsExactly("V1", "latest");
        assertThat(store.tags(REPO, Optional.of("latest"), 2)).containsExactly("v1", "v10");
        assertThat(store.tags(REPO, Optional.of("v10"), 2)).containsExactly("v2");
        assertThat(store.tags(REPO, Optional.of("v2"), 2)).isEmpty();
        assertThat(store.tags(REPO, Optional.of("m"), 100)).containsExactly("v1", "v10", "v2");
        assertThat(store.tags(RepositoryName.of("empty"), Optional.empty(), 10)).isEmpty();
    }

    @Test
    @Timeout(30)
    void concurrentTagWritersLeaveOneOfTheirValuesAndReadersSeeNothingElse() throws Exception {
        int writers = 8;
        List<Digest> candidates = new ArrayList<>();
        for (int i = 0; i < writers; i++) {
            candidates.add(digest("candidate " + i));
        }
        Digest initial = digest("initial");
        store.putTag(REPO, "latest", initial);
        Set<Digest> allowed = new HashSet<>(candidates);
        allowed.add(initial);
        CyclicBarrier start = new CyclicBarrier(writers);
        AtomicBoolean writing = new AtomicBoolean(true);
        try (ExecutorService threads = Executors.newFixedThreadPool(writers + 1)) {
            Future<?> reader = threads.submit(() -> {
                do {
                    assertThat(store.tag(REPO, "latest")).hasValueSatisfying(seen -> assertThat(allowed).contains(seen));
                } while (writing.get());
                return null;
            });
            List<Future<?>> writes = new ArrayList<>();
            for (Digest candidate : candidates) {
                writes.add(threads.submit(() -> {
                    start.await();
                    for (int round = 0; round < 10; round++) {
                        store.putTag(REPO, "latest", candidate);
                    }
                    return null;
                }));
            }
            for (Future<?> write : writes) {
                write.get(20, TimeUnit.SECONDS);
            }
            writing.set(false);
            reader.get(20, TimeUnit.SECONDS);
        }

        assertThat(store.tag(REPO, "latest")).hasValueSatisfying(last -> assertThat(candidates).contains(last));
        Digest afterwards = digest("afterwards");
        store.putTag(REPO, "latest", afterwards);
        assertThat(store.tag(REPO, "latest")).contains(afterwards);
    }

    @Test
    void referrersAreListedByDigestWithTheirDescriptors() throws Exception {
        Digest subject = digest("image");
        Descriptor signature = new Descriptor(IMAGE_MANIFEST, digest("signature"), 321,
                "application/vnd.dev.cosign.artifact.sig.v1+json",
                Map.of("org.opencontainers.image.created", "2026-01-02T03:04:05Z", "quote\"and=sign;", "line\nbreak"));
        Descriptor sbom = new Descriptor(IMAGE_MANIFEST, digest("sbom"), 654, null, Map.of());

        store.addReferrer(REPO, subject, signature);
        store.addReferrer(REPO, subject, sbom);

        List<Descriptor> expected = new ArrayList<>(List.of(signature, sbom));
        expected.sort((a, b) -> a.digest().compareTo(b.digest()));
        assertThat(store.referrers(REPO, subject)).containsExactlyElementsOf(expected);
        assertThat(store.referrers(OTHER_REPO, subject)).isEmpty();
        assertThat(store.referrers(REPO, digest("no referrers"))).isEmpty();
    }

    @Test
    void addingAReferrerAgainKeepsOneEntryWithTheLatestDescriptor() throws Exception {
        Digest subject = digest("image");
        Digest referrer = digest("signature");
        store.addReferrer(REPO, subject, new Descriptor(IMAGE_MANIFEST, referrer, 1, "old/type", Map.of("a", "1")));

        Descriptor latest = new Descriptor(IMAGE_MANIFEST, referrer, 1, "new/type", Map.of("b", "2"));
        store.addReferrer(REPO, subject, latest);
        store.addReferrer(REPO, subject, latest);

        assertThat(store.referrers(REPO, subject)).containsExactly(latest);
    }

    @Test
    void removeReferrerSaysWhetherItExisted() throws Exception {
        Digest subject = digest("image");
        Descriptor signature = descriptor(digest("signature"));
        store.addReferrer(REPO, subject, signature);

        assertThat(store.removeReferrer(REPO, subject, signature.digest())).isTrue();
        assertThat(store.referrers(REPO, subject)).isEmpty();
        assertThat(store.removeReferrer(REPO, subject, signature.digest())).isFalse();
    }

    @Test
    void createdUploadReadsBackWithItsHashState() throws Exception {
        UploadState upload = upload("upload-1", T0);

        store.createUpload(upload);

        assertUpload(store.upload("upload-1").orElseThrow(), upload);
        assertThat(store.upload("unknown")).isEmpty();
    }

    @Test
    void creatingAnUploadTwiceFailsAndKeepsTheFirst() throws Exception {
        UploadState first = upload("upload-1", T0);
        store.createUpload(first);
        UploadState duplicate = new UploadState("upload-1", OTHER_REPO, 99, new byte[] {9}, T0, T0);

        assertThatThrownBy(() -> store.createUpload(duplicate)).isInstanceOf(Exception.class);

        assertUpload(store.upload("upload-1").orElseThrow(), first);
    }

    @Test
    void advanceUploadReplacesTheStateOnlyFromTheExpectedSize() throws Exception {
        UploadState start = upload("upload-1", T0);
        store.createUpload(start);
        UploadState next = start.advancedBy(100, new byte[] {4, 5, 6}, T0.plusSeconds(1));

        assertThat(store.advanceUpload(next, 0, null)).isTrue();
        assertUpload(store.upload("upload-1").orElseThrow(), next);

        UploadState stale = start.advancedBy(50, new byte[] {7}, T0.plusSeconds(2));
        assertThat(store.advanceUpload(stale, 0, null)).isFalse();
        assertUpload(store.upload("upload-1").orElseThrow(), next);
    }

    @Test
    void advancingAMissingUploadFails() throws Exception {
        assertThat(store.advanceUpload(upload("missing", T0).advancedBy(1, new byte[0], T0), 0, null)).isFalse();
        assertThat(store.upload("missing")).isEmpty();
    }

    @Test
    @Timeout(30)
    void ofTwoRequestsRacingOnOneUploadExactlyOneAdvancesIt() throws Exception {
        int racers = 8;
        for (int round = 0; round < 5; round++) {
            UploadState start = upload("race-" + round, T0);
            store.createUpload(start);
            List<Integer> winners = race(racers, i -> () ->
                    store.advanceUpload(start.advancedBy(10 + i, new byte[] {(byte) i}, T0.plusSeconds(1)), 0, null));
            assertThat(winners).hasSize(1);
            int winner = winners.getFirst();
            UploadState stored = store.upload("race-" + round).orElseThrow();
            assertThat(stored.size()).isEqualTo(10 + winner);
            assertThat(stored.hashState()).containsExactly((byte) winner);
        }
    }

    @Test
    void aClaimedUploadIsAdvancedOnlyByItsClaimAndFreeAgainAfterwards() throws Exception {
        UploadState start = upload("upload-1", T0);
        store.createUpload(start);

        assertThat(store.claimUpload("upload-1", 0, "a", T0.plusSeconds(1), T0)).isTrue();
        assertThat(store.upload("upload-1").orElseThrow().updatedAt()).isEqualTo(T0.plusSeconds(1));
        assertThat(store.claimUpload("upload-1", 0, "b", T0.plusSeconds(2), T0)).as("claimed while held").isFalse();
        UploadState next = start.advancedBy(100, new byte[] {4}, T0.plusSeconds(3));
        assertThat(store.advanceUpload(next, 0, "b")).as("advanced by another claim").isFalse();
        assertThat(store.advanceUpload(next, 0, null)).as("advanced without the claim").isFalse();

        assertThat(store.advanceUpload(next, 0, "a")).isTrue();
        assertThat(store.claimUpload("upload-1", 0, "b", T0.plusSeconds(4), T0)).as("claimed at a size it left").isFalse();
        assertThat(store.claimUpload("upload-1", 100, "b", T0.plusSeconds(4), T0)).isTrue();
        store.releaseUpload("upload-1", "a");
        assertThat(store.claimUpload("upload-1", 100, "c", T0.plusSeconds(5), T0)).as("released by another claim").isFalse();
        store.releaseUpload("upload-1", "b");
        assertThat(store.claimUpload("upload-1", 100, "c", T0.plusSeconds(5), T0)).isTrue();
        assertUpload(store.upload("upload-1").orElseThrow(), next.advancedBy(0, new byte[] {4}, T0.plusSeconds(5)));
    }

    @Test
    void aClaimNotRenewedInTimeCanBeTakenOverAndItsHolderThenChangesNothing() throws Exception {
        store.createUpload(upload("upload-1", T0));
        store.claimUpload("upload-1", 0, "stalled", T0, T0.minusSeconds(10));
        assertThat(store.renewClaim("upload-1", "stalled", T0.plusSeconds(5))).isTrue();

        assertThat(store.claimUpload("upload-1", 0, "next", T0.plusSeconds(12), T0.plusSeconds(5)))
                .as("renewed at the cutoff").isFalse();
        assertThat(store.claimUpload("upload-1", 0, "next", T0.plusSeconds(16), T0.plusSeconds(6))).isTrue();

        assertThat(store.renewClaim("upload-1", "stalled", T0.plusSeconds(17))).isFalse();
        store.releaseUpload("upload-1", "stalled");
        assertThat(store.advanceUpload(upload("upload-1", T0).advancedBy(1, new byte[0], T0.plusSeconds(18)), 0, "stalled"))
                .isFalse();
        assertThat(store.renewClaim("upload-1", "next", T0.plusSeconds(18))).isTrue();
    }

    @Test
    void claimingOrReleasingAMissingUploadChangesNothing() throws Exception {
        assertThat(store.claimUpload("missing", 0, "a", T0, T0)).isFalse();
        assertThat(store.renewClaim("missing", "a", T0)).isFalse();
        store.releaseUpload("missing", "a");
        assertThat(store.upload("missing")).isEmpty();
    }

    @Test
    @Timeout(30)
    void ofRequestsRacingToClaimOneUploadExactlyOneGetsIt() throws Exception {
        for (int round = 0; round < 5; round++) {
            String id = "claim-race-" + round;
            store.createUpload(upload(id, T0));

            assertThat(race(8, i -> () -> store.claimUpload(id, 0, "racer-" + i, T0.plusSeconds(1), T0))).hasSize(1);
        }
    }

    /** Starts {@code racers} attempts at once and returns the indices of those that succeeded. */
    private static List<Integer> race(int racers, IntFunction<Callable<Boolean>> attempt) throws Exception {
        CyclicBarrier barrier = new CyclicBarrier(racers);
        List<Future<Boolean>> attempts = new ArrayList<>();
        try (ExecutorService threads = Executors.newFixedThreadPool(racers)) {
            for (int i = 0; i < racers; i++) {
                Callable<Boolean> racer = attempt.apply(i);
                attempts.add(threads.submit(() -> {
                    barrier.await();
                    return racer.call();
                }));
            }
        }
        List<Integer> winners = new ArrayList<>();
        for (int i = 0; i < racers; i++) {
            if (attempts.get(i).get()) {
                winners.add(i);
            }
        }
        return winners;
    }

    @Test
    void deleteUploadSaysWhetherItExisted() throws Exception {
        store.createUpload(upload("upload-1", T0));

        assertThat(store.deleteUpload("upload-1")).isTrue();
        assertThat(store.upload("upload-1")).isEmpty();
        assertThat(store.deleteUpload("upload-1")).isFalse();
    }

    @Test
    void uploadsIdleSinceListsOnlyThoseNotTouchedSinceTheCutoff() throws Exception {
        store.createUpload(upload("old", T0));
        store.createUpload(upload("touched", T0));
        store.createUpload(upload("fresh", T0.plusSeconds(3600)));
        UploadState touched = store.upload("touched").orElseThrow();
        store.advanceUpload(touched.advancedBy(1, new byte[0], T0.plusSeconds(3600)), 0, null);

        assertThat(store.uploadsIdleSince(T0.plusSeconds(60))).extracting(UploadState::id).containsExactly("old");
        assertThat(store.uploadsIdleSince(T0)).isEmpty();
        assertThat(store.uploadsIdleSince(T0.plusSeconds(7200))).extracting(UploadState::id)
                .containsExactlyInAnyOrder("old", "touched", "fresh");
    }

    @Test
    void everythingSurvivesARestart() throws Exception {
        Digest blob = digest("layer");
        store.linkBlob(REPO, blob);
        ManifestRecord manifest = new ManifestRecord(digest("manifest"), IMAGE_MANIFEST, 42);
        store.linkManifest(REPO, manifest);
        store.putTag(REPO, "latest", manifest.digest());
        Descriptor referrer = new Descriptor(IMAGE_MANIFEST, digest("signature"), 7, "application/example",
                Map.of("key", "value"));
        store.addReferrer(REPO, manifest.digest(), referrer);
        UploadState upload = upload("upload-1", T0);
        store.createUpload(upload);

        store.close();
        store = reopen();

        assertThat(store.hasBlob(REPO, blob)).isTrue();
        assertThat(store.manifest(REPO, manifest.digest())).contains(manifest);
        assertThat(store.tag(REPO, "latest")).contains(manifest.digest());
        assertThat(store.referrers(REPO, manifest.digest())).containsExactly(referrer);
        assertUpload(store.upload("upload-1").orElseThrow(), upload);
        assertThat(store.repositories(Optional.empty(), 10)).containsExactly(REPO);
    }

    protected static Digest digest(String content) {
        return Digest.sha256(content.getBytes(UTF_8));
    }

    private Digest linkManifest(RepositoryName repository, String content) throws Exception {
        Digest digest = digest(content);
        store.linkManifest(repository, new ManifestRecord(digest, IMAGE_MANIFEST, content.length()));
        return digest;
    }

    private static Descriptor descriptor(Digest digest) {
        return new Descriptor(IMAGE_MANIFEST, digest, 100, null, Map.of());
    }

    private static UploadState upload(String id, Instant at) {
        return new UploadState(id, REPO, 0, new byte[] {1, 2, 3}, at, at);
    }

    /** UploadState holds a byte array, so record equality does not apply. */
    private static void assertUpload(UploadState actual, UploadState expected) {
        assertThat(actual.id()).isEqualTo(expected.id());
        assertThat(actual.repository()).isEqualTo(expected.repository());
        assertThat(actual.size()).isEqualTo(expected.size());
        assertThat(actual.hashState()).isEqualTo(expected.hashState());
        assertThat(actual.startedAt()).isEqualTo(expected.startedAt().truncatedTo(ChronoUnit.MILLIS));
        assertThat(actual.updatedAt()).isEqualTo(expected.updatedAt().truncatedTo(ChronoUnit.MILLIS));
    }
}
