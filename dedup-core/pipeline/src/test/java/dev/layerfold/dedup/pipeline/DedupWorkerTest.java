package dev.layerfold.dedup.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.dedup.codec.LayerRebuilder;
import dev.layerfold.dedup.codec.LayerSplitter;
import dev.layerfold.dedup.codec.identify.StandardEncoders;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.dedup.DedupIndex;
import dev.layerfold.storage.dedup.DedupQueue;
import dev.layerfold.storage.dedup.LayerTask;
import dev.layerfold.storage.embedded.SqliteMetadataStore;
import dev.layerfold.storage.filesystem.FilesystemBlobStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DedupWorkerTest {

    private static final String GZIP_LAYER = "application/vnd.oci.image.layer.v1.tar+gzip";

    @TempDir
    Path dir;

    private FilesystemBlobStore blobs;
    private SqliteMetadataStore metadata;
    private DedupIndex index;
    private DedupQueue queue;

    @BeforeEach
    void stores() throws IOException {
        blobs = new FilesystemBlobStore(dir.resolve("data"));
        metadata = new SqliteMetadataStore(dir.resolve("metadata.db"));
        index = metadata.dedupIndex();
        queue = metadata.dedupQueue();
    }

    @AfterEach
    void close() {
        metadata.close();
    }

    @Test
    void aLayerHotWhenFirstTakenWaitsForTheColdOnesAndIsDecidedAtItsNextTurnStillHot() throws Exception {
        Digest hot = pushAndQueue("a layer many pull");
        Digest cold = pushAndQueue("a layer nobody pulls");
        metadata.layerPulls().record(Map.of(hot, 20L));
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        LayerDeduplicator deduplicator = new LayerDeduplicator(blobs, index, metadata.gcIndex(), new LayerSplitter(StandardEncoders.identifier()),
                new LayerRebuilder(StandardEncoders.factory()),
                new DedupSettings(dir.resolve("scratch"), 3, 64 << 20, Duration.ofMinutes(1), DedupLimits.DEFAULT),
                IntactCopyPolicy.NO_COPIES);

        try (DedupWorker worker = new DedupWorker(queue, index, deduplicator, new DedupMetrics(meters, index, queue),
                () -> false, new ColdFirst(metadata.layerPulls(), 10, Duration.ZERO), Duration.ofMinutes(1))) {
            assertThat(worker.work("w")).isTrue();
            assertThat(index.layer(hot)).as("put back, not decided").isEmpty();
            assertThat(meters.counter("layerfold.dedup.tasks.deferred").count()).isEqualTo(1);

            assertThat(worker.work("w")).isTrue();
            assertThat(index.layer(cold)).as("the cold layer, queued after it, went first").isPresent();
            assertThat(index.layer(hot)).isEmpty();

            assertThat(worker.work("w")).isTrue();
            assertThat(index.layer(hot)).as("decided at its next turn, hot as it still is").isPresent();
            assertThat(worker.work("w")).isFalse();
            assertThat(queue.backlog()).isZero();
            assertThat(meters.counter("layerfold.dedup.tasks.deferred").count()).as("once").isEqualTo(1);
        }
    }

    /** A blob pushed as a layer and queued; not gzip, so the worker decides it at once (it stays intact). */
    private Digest pushAndQueue(String content) throws IOException {
        byte[] blob = content.getBytes(StandardCharsets.UTF_8);
        Digest digest = Digest.sha256(blob);
        String upload = UUID.randomUUID().toString();
        blobs.startUpload(upload);
        blobs.append(upload, new ByteArrayInputStream(blob));
        blobs.publish(upload, digest);
        queue.enqueue(new LayerTask(digest, GZIP_LAYER, blob.length));
        return digest;
    }
}
