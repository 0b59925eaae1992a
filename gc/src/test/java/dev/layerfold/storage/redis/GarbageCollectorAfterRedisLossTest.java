package dev.layerfold.storage.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.gc.CollectionReport;
import dev.layerfold.gc.GarbageCollector;
import dev.layerfold.gc.GcSettings;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.gc.GcIndex;
import dev.layerfold.storage.gc.ManifestTargets;
import dev.layerfold.storage.metadata.ManifestRecord;
import dev.layerfold.storage.s3.S3BlobStore;
import dev.layerfold.storage.s3.S3Settings;
import dev.layerfold.storage.testserver.RedisServer;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Redis that lost the GC index must not let the collector take what the manifests in the bucket still
 * name: it rebuilds the references from them first, and condemns nothing while it cannot vouch.
 */
class GarbageCollectorAfterRedisLossTest {

    private static final RepositoryName APP = RepositoryName.of("team/app");
    /** Manifests here are the digests they name, one per line. */
    private static final ManifestTargets LINES = (manifest, mediaType) -> Arrays.stream(
            new String(manifest, StandardCharsets.UTF_8).split("\n")).map(Digest::parse).toList();

    private final SharedServerStores stores = new SharedServerStores(RedisServer.shared().url(), false);

    @AfterEach
    void close() {
        stores.close();
    }

    @Test
    void referencesLostWithRedisAreRebuiltFromTheManifestsBeforeAnythingIsCondemned() throws Exception {
        RedisMetadataStore metadata = stores.open();
        S3BlobStore blobs = new S3BlobStore(stores.bucket(), S3Settings.DEFAULT_PART_SIZE, false);
        GcIndex index = metadata.gcIndex();
        index.markComplete(index.generation(), true);
        Digest layer = publish(blobs, "a layer".getBytes(StandardCharsets.UTF_8));
        metadata.linkBlob(APP, layer);
        index.touch(APP, layer);
        byte[] manifestBytes = layer.toString().getBytes(StandardCharsets.UTF_8);
        Digest manifest = publish(blobs, manifestBytes);
        index.reference(APP, manifest, List.of(layer, manifest));
        metadata.linkManifest(APP, new ManifestRecord(manifest, "text/plain", manifestBytes.length));

        stores.forgetEverythingInRedis();
        // A touch after the loss makes the layer a candidate again, with nothing recorded as referencing it.
        index.touch(APP, layer);
        GarbageCollector collector = new GarbageCollector(blobs, metadata, index, Optional.empty(), LINES,
                Optional.of(metadata.leases()), GcSettings.DEFAULTS.withGrace(Duration.ZERO), Clock.systemUTC(),
                GarbageCollector.Observer.NONE);

        CollectionReport first = collector.collect().orElseThrow();
        CollectionReport second = collector.collect().orElseThrow();

        assertThat(first.rebuiltReferences()).isTrue();
        assertThat(index.references(layer)).isEqualTo(1);
        assertThat(second.blobsRemoved()).isZero();
        assertThat(blobs.size(layer)).isPresent();
        assertThat(blobs.size(manifest)).isPresent();
    }

    private static Digest publish(S3BlobStore blobs, byte[] bytes) throws Exception {
        Digest digest = Digest.sha256(bytes);
        String upload = "upload-" + digest.hex();
        blobs.startUpload(upload);
        blobs.append(upload, new ByteArrayInputStream(bytes));
        blobs.publish(upload, digest);
        return digest;
    }
}
