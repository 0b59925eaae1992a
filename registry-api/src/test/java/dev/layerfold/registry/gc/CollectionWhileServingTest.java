package dev.layerfold.registry.gc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.layerfold.gc.CheckReport;
import dev.layerfold.gc.CollectionReport;
import dev.layerfold.gc.GarbageCollector;
import dev.layerfold.gc.GcSettings;
import dev.layerfold.gc.RegistryCheck;
import dev.layerfold.registry.GcHooks;
import dev.layerfold.registry.RegistryHttpTest;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.blob.BlobContent;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.gc.GcIndex;
import dev.layerfold.storage.gc.ManifestTargets;
import dev.layerfold.storage.metadata.MetadataStore;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The collector running while clients push, pull, mount and delete: the failures of peer registries
 * (docs/design.md, "Garbage collection") reproduced as requests interleaved with the collector's
 * steps through its observer and the GC index's hooks, never by timing. Each backend runs the same
 * scenarios (see the subclasses).
 */
abstract class CollectionWhileServingTest extends RegistryHttpTest {

    /** Everything is past the grace at once: the hardest case for the requests racing the collector. */
    private static final Duration NO_GRACE = Duration.ZERO;
    private static final Duration REAL_GRACE = Duration.ofHours(1);

    @Autowired
    BlobStore blobs;
    @Autowired
    MetadataStore metadata;
    @Autowired
    GcIndex index;
    @Autowired
    ManifestTargets targets;
    @Autowired
    GcHooks hooks;

    private GarbageCollector collector(Duration grace, GarbageCollector.Observer observer) {
        return new GarbageCollector(blobs, metadata, index, Optional.empty(), targets, Optional.empty(),
                GcSettings.DEFAULTS.withGrace(grace), Clock.systemUTC(), observer);
    }

    private CollectionReport collect(Duration grace, GarbageCollector.Observer observer) throws Exception {
        GarbageCollector collector = collector(grace, observer);
        CollectionReport report = collector.collect().orElseThrow();
        // An index that had to be rebuilt first collects on the next run.
        return report.rebuiltReferences() ? collector.collect().orElseThrow() : report;
    }

    @Test
    void aDeletedImageIsReclaimedButABlobAnotherImageSharesStays() throws Exception {
        String repository = uniqueRepository("gc-deleted");
        byte[] shared = "layer both images hold".getBytes(StandardCharsets.UTF_8);
        Digest sharedLayer = pushBlob(repository, shared);
        Digest gone = pushImageWith(repository, "old", sharedLayer);
        Digest kept = pushImageWith(repository, "new", sharedLayer);
        Digest goneConfig = configOf(gone);

        assertThat(request("DELETE", "/v2/" + repository + "/manifests/" + gone).send().statusCode()).isEqualTo(202);
        CollectionReport report = collect(NO_GRACE, GarbageCollector.Observer.NONE);

        assertThat(report.blobsRemoved()).isGreaterThanOrEqualTo(2);
        assertThat(blobs.size(gone)).as("the deleted manifest's bytes").isEmpty();
        assertThat(blobs.size(goneConfig)).as("the config only it named").isEmpty();
        assertThat(pull(repository, sharedLayer)).isEqualTo(shared);
        assertThat(request("GET", "/v2/" + repository + "/manifests/new").send().statusCode()).isEqualTo(200);
        assertThat(blobs.size(kept)).isPresent();
    }

    /** A delete killed between its unlink and its unreference would keep the image's blobs forever. */
    @Test
    void aManifestDeleteKilledBeforeItsUnreferenceIsFinishedByTheCollector() throws Exception {
        String repository = uniqueRepository("gc-interrupted-delete");
        Digest layer = pushBlob(repository, "a layer of an image whose delete was killed".getBytes(StandardCharsets.UTF_8));
        Digest gone = pushImageWith(repository, "gone", layer);
        Digest goneConfig = configOf(gone);

        hooks.killBeforeNextUnreference();
        assertThat(request("DELETE", "/v2/" + repository + "/manifests/" + gone).send().statusCode()).isGreaterThanOrEqualTo(500);
        assertThat(request("GET", "/v2/" + repository + "/manifests/" + gone).send().statusCode()).as("unlinked").isEqualTo(404);
        assertThat(collect(REAL_GRACE, GarbageCollector.Observer.NONE).blobsRemoved()).as("a delete in progress is left alone").isZero();
        assertThat(index.references(layer)).isEqualTo(1);

        collect(NO_GRACE, GarbageCollector.Observer.NONE);

        assertThat(index.references(layer)).isZero();
        assertThat(blobs.size(layer)).isEmpty();
        assertThat(blobs.size(goneConfig)).isEmpty();
        assertThat(blobs.size(gone)).isEmpty();
    }

    /** distribution#3045: the collector deleted the layers of a push whose manifest was still to come. */
    @Test
    void pushInProgressKeepsItsBlobsWhileTheCollectorRuns() throws Exception {
        String repository = uniqueRepository("gc-push-in-progress");
        byte[] layer = "layer of a push in progress".getBytes(StandardCharsets.UTF_8);
        Digest layerDigest = pushBlob(repository, layer);
        byte[] config = "{\"os\":\"linux\"}".getBytes(StandardCharsets.UTF_8);
        Digest configDigest = pushBlob(repository, config);

        collect(REAL_GRACE, GarbageCollector.Observer.NONE);

        pushManifest(repository, "v1", OCI_MANIFEST, imageManifest(configDigest, config.length, layerDigest));
        assertThat(pull(repository, layerDigest)).isEqualTo(layer);
    }

    /** distribution#2881: the collector removed uploads in progress. */
    @Test
    void uploadInProgressSurvivesCollection() throws Exception {
        String repository = uniqueRepository("gc-upload");
        byte[] blob = "a blob sent in two chunks, collected in between".getBytes(StandardCharsets.UTF_8);
        String location = request("POST", "/v2/" + repository + "/blobs/uploads/").send()
                .headers().firstValue("Location").orElseThrow();
        assertThat(request("PATCH", location).header("Content-Range", "0-9").body(Arrays.copyOfRange(blob, 0, 10))
                .send().statusCode()).isEqualTo(202);

        collect(NO_GRACE, GarbageCollector.Observer.NONE);

        HttpResponse<byte[]> close = request("PUT", location + "?digest=" + Digest.sha256(blob))
                .header("Content-Range", "10-" + (blob.length - 1)).body(Arrays.copyOfRange(blob, 10, blob.length)).send();
        assertThat(close.statusCode()).as(text(close)).isEqualTo(201);
        assertThat(pull(repository, Digest.sha256(blob))).isEqualTo(blob);
    }

    /**
     * harbor#23116, #19308, #12975: a manifest pushed while the collector judged its blobs ended up
     * naming deleted bytes. Here the push meets the condemnation and is refused with the spec's error;
     * pushed again, blob and manifest, it succeeds and pulls.
     */
    @Test
    void manifestPushedWhileItsBlobsAreJudgedEitherKeepsThemOrFails() throws Exception {
        String repository = uniqueRepository("gc-judged");
        byte[] layer = "layer judged while its manifest arrives".getBytes(StandardCharsets.UTF_8);
        Digest layerDigest = pushBlob(repository, layer);
        byte[] config = "{\"os\":\"linux\",\"judged\":true}".getBytes(StandardCharsets.UTF_8);
        Digest configDigest = pushBlob(repository, config);
        byte[] manifest = imageManifest(configDigest, config.length, layerDigest);
        AtomicReference<HttpResponse<byte[]>> pushedMeanwhile = new AtomicReference<>();

        collect(NO_GRACE, new GarbageCollector.Observer() {
            @Override
            public void condemned(GcIndex.Condemnation condemnation) {
                if (condemnation.digest().equals(layerDigest)) {
                    pushedMeanwhile.set(send("PUT", "/v2/" + repository + "/manifests/v1", OCI_MANIFEST, manifest));
                }
            }
        });

        assertThat(pushedMeanwhile.get().statusCode()).as(text(pushedMeanwhile.get())).isEqualTo(400);
        assertThat(errorCode(pushedMeanwhile.get())).isEqualTo("MANIFEST_BLOB_UNKNOWN");
        assertThat(request("GET", "/v2/" + repository + "/manifests/v1").send().statusCode()).isEqualTo(404);

        pushBlob(repository, layer);
        pushBlob(repository, config);
        pushManifest(repository, "v1", OCI_MANIFEST, manifest);
        collect(NO_GRACE, GarbageCollector.Observer.NONE);
        assertThat(pull(repository, layerDigest)).isEqualTo(layer);
    }

    /** A mount racing the collector's delete of the source blob mounts nothing; the client uploads instead. */
    @Test
    void mountRacingCollectionNeverLinksDeletedBytes() throws Exception {
        String source = uniqueRepository("gc-mount-source");
        String target = uniqueRepository("gc-mount-target");
        Digest digest = pushBlob(source, "blob mounted while collected");
        AtomicReference<HttpResponse<byte[]>> mounted = new AtomicReference<>();

        collect(NO_GRACE, new GarbageCollector.Observer() {
            @Override
            public void condemned(GcIndex.Condemnation condemnation) {
                if (condemnation.digest().equals(digest)) {
                    mounted.set(send("POST", "/v2/" + target + "/blobs/uploads/?mount=" + digest + "&from=" + source, null, null));
                }
            }
        });

        assertThat(mounted.get().statusCode()).as("an upload session instead of a mount").isEqualTo(202);
        assertThat(request("HEAD", "/v2/" + target + "/blobs/" + digest).send().statusCode()).isEqualTo(404);
        assertThat(request("HEAD", "/v2/" + source + "/blobs/" + digest).send().statusCode()).isEqualTo(404);
    }

    /** An upload of a blob the collector is deleting waits for the delete, then publishes its bytes. */
    @Test
    void uploadOfABlobBeingDeletedPublishesAfterTheDelete() throws Exception {
        String repository = uniqueRepository("gc-reupload");
        byte[] blob = "blob pushed again while it is deleted".getBytes(StandardCharsets.UTF_8);
        Digest digest = pushBlob(repository, blob);
        AtomicReference<CompletableFuture<HttpResponse<byte[]>>> upload = new AtomicReference<>();

        collect(NO_GRACE, new GarbageCollector.Observer() {
            @Override
            public void condemned(GcIndex.Condemnation condemnation) {
                if (condemnation.digest().equals(digest)) {
                    CountDownLatch waiting = hooks.awaitRefusedTouches(1);
                    upload.set(CompletableFuture.supplyAsync(() -> send("POST",
                            "/v2/" + repository + "/blobs/uploads/?digest=" + digest, "application/octet-stream", blob)));
                    await(waiting);
                }
            }
        });

        HttpResponse<byte[]> uploaded = upload.get().get(60, TimeUnit.SECONDS);
        assertThat(uploaded.statusCode()).as(text(uploaded)).isEqualTo(201);
        assertThat(pull(repository, digest)).isEqualTo(blob);
    }

    @Test
    void theCheckerFindsAWellKeptRepositoryWholeAndReportsWhatWasBrokenBehindItsBack() throws Exception {
        String repository = uniqueRepository("gc-check");
        Digest layer = pushBlob(repository, "layer the check follows");
        Digest manifest = pushImageWith(repository, "v1", layer);
        collect(NO_GRACE, GarbageCollector.Observer.NONE);
        assertThat(problemsIn(repository, check(false))).isEmpty();

        index.unreference(RepositoryName.of(repository), manifest);
        List<CheckReport.Problem> unreferenced = problemsIn(repository, check(true));
        assertThat(unreferenced).extracting(CheckReport.Problem::kind).contains(CheckReport.Kind.REFERENCE_MISSING);
        assertThat(unreferenced).allMatch(CheckReport.Problem::repaired);
        assertThat(index.references(layer)).as("recorded again from the manifest").isEqualTo(1);

        blobs.delete(layer);
        assertThat(problemsIn(repository, check(false))).extracting(CheckReport.Problem::kind, CheckReport.Problem::digest)
                .containsExactly(tuple(CheckReport.Kind.BLOB_MISSING, layer));
    }

    private CheckReport check(boolean repair) throws Exception {
        return new RegistryCheck(blobs, BlobContent.intact(blobs), metadata, index, targets, Optional.empty()).run(repair);
    }

    private static List<CheckReport.Problem> problemsIn(String repository, CheckReport report) {
        return report.problems().stream().filter(problem -> problem.repository() != null
                && problem.repository().value().equals(repository)).toList();
    }

    private Digest pushImageWith(String repository, String tag, Digest layer) throws Exception {
        byte[] config = ("{\"os\":\"linux\",\"tag\":\"" + tag + "\"}").getBytes(StandardCharsets.UTF_8);
        Digest configDigest = pushBlob(repository, config);
        return pushManifest(repository, tag, OCI_MANIFEST, imageManifest(configDigest, config.length, layer));
    }

    private Digest configOf(Digest manifest) throws Exception {
        try (var in = blobs.open(manifest, 0, -1).orElseThrow()) {
            return Digest.parse(json.readTree(in.readAllBytes()).get("config").get("digest").stringValue());
        }
    }

    private byte[] pull(String repository, Digest digest) throws Exception {
        HttpResponse<byte[]> response = request("GET", "/v2/" + repository + "/blobs/" + digest).send();
        assertThat(response.statusCode()).as(text(response)).isEqualTo(200);
        return response.body();
    }

    private HttpResponse<byte[]> send(String method, String path, String contentType, byte[] body) {
        try {
            Request request = request(method, path);
            if (contentType != null) {
                request.header("Content-Type", contentType);
            }
            return (body == null ? request : request.body(body)).send();
        } catch (Exception e) {
            throw new IllegalStateException(method + " " + path + " failed", e);
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(60, TimeUnit.SECONDS)).as("the request reached the collector's fence").isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
