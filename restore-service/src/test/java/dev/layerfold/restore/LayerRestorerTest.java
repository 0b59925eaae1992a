package dev.layerfold.restore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layerfold.dedup.codec.recipe.FileRef;
import dev.layerfold.dedup.codec.LayerRebuilder;
import dev.layerfold.dedup.codec.identify.StandardEncoders;
import dev.layerfold.dedup.store.LayerRecord;
import dev.layerfold.dedup.store.StoredFiles;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.dedup.LayerState;
import dev.layerfold.storage.embedded.SqliteMetadataStore;
import dev.layerfold.storage.filesystem.FilesystemBlobStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Restores over the real embedded stores, of layers the real pipeline deduplicated. */
class LayerRestorerTest {

    private static final String GZIP_LAYER = "application/vnd.oci.image.layer.v1.tar+gzip";

    @TempDir
    Path dir;

    private FilesystemBlobStore blobs;
    private SqliteMetadataStore metadata;
    private final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
    private final HeldExecutor heldRebuilds = new HeldExecutor();
    private final ExecutorService fetchers = Executors.newFixedThreadPool(4);
    private LayerRestorer restorer;

    @BeforeEach
    void stores() throws IOException {
        blobs = new FilesystemBlobStore(dir.resolve("data"));
        metadata = new SqliteMetadataStore(dir.resolve("metadata.db"));
        restorer = new LayerRestorer(blobs, metadata.dedupIndex(), new LayerRebuilder(StandardEncoders.factory()), heldRebuilds, fetchers,
                dir.resolve("spool"), metrics);
    }

    @AfterEach
    void close() {
        fetchers.shutdownNow();
        metadata.close();
    }

    @Test
    void concurrentRequestsForALayerShareOneRebuildAndGetExactBytes() throws Exception {
        byte[] layer = deduplicated(layer(new Random(1), 30));

        InputStream first = restorer.open(Digest.sha256(layer), 0, -1).orElseThrow();
        InputStream range = restorer.open(Digest.sha256(layer), 4096, 10_000).orElseThrow();
        runHeldRebuilds();

        assertThat(heldRebuilds.heldSoFar()).as("one rebuild for both requests").isEqualTo(1);
        assertThat(first.readAllBytes()).isEqualTo(layer);
        assertThat(range.readAllBytes()).isEqualTo(Arrays.copyOfRange(layer, 4096, 14_096));
        assertThat(restorer.size(Digest.sha256(layer))).contains((long) layer.length);
    }

    @Test
    void aDamagedPackCutsTheResponseAndIsCounted() throws Exception {
        byte[] layer = deduplicated(layer(new Random(2), 10));
        damageEveryPack();

        InputStream pulled = restorer.open(Digest.sha256(layer), 0, -1).orElseThrow();
        runHeldRebuilds();

        assertThatThrownBy(pulled::readAllBytes).isInstanceOf(IOException.class);
        assertThat(metrics.counter("layerfold.restore.verification.failures").count()).isEqualTo(1);
    }

    @Test
    void aStoredFileDamagedWithinItsSizeFailsTheLayersDigestAndIsNamedAfterwards() throws Exception {
        // Random bytes are stored in raw zstd blocks: a flipped byte still decompresses, to other bytes of the same size.
        byte[] layer = deduplicated(DeduplicatedLayers.layer(new Random(3), 10, 256));
        damageEveryPack();
        StoredFiles stored = new StoredFiles(blobs);
        LayerRecord record = stored.record(((LayerState.Deduplicated) metadata.dedupIndex().layer(Digest.sha256(layer)).orElseThrow()).record());
        List<FileRef> damaged = stored.damagedFiles(record);
        assertThat(damaged).hasSize(1);
        try (InputStream asStored = stored.openAsStored(damaged.getFirst(), record.location(damaged.getFirst()))) {
            assertThat(asStored.readAllBytes()).as("only a hash tells the damage").hasSize((int) damaged.getFirst().size());
        }

        InputStream pulled = restorer.open(Digest.sha256(layer), 0, -1).orElseThrow();
        runHeldRebuilds();

        assertThatThrownBy(pulled::readAllBytes).isInstanceOf(IOException.class);
        assertThat(metrics.counter("layerfold.restore.verification.failures").count()).isEqualTo(1);
    }

    @Test
    void aLayerOfManyRunsRestoresExactlyThroughArraysUsedAgain() throws Exception {
        // Random bytes, which zstd stores raw: runs reach their cap of 2 MiB, so most are read into arrays
        // an earlier run held, and two files over the small-file size are streamed between them.
        byte[] layer = deduplicated(layerWithLargeFiles(new Random(6), 400));

        InputStream whole = restorer.open(Digest.sha256(layer), 0, -1).orElseThrow();
        runHeldRebuilds();
        assertThat(whole.readAllBytes()).isEqualTo(layer);
        InputStream again = restorer.open(Digest.sha256(layer), 0, -1).orElseThrow();
        runHeldRebuilds();
        assertThat(again.readAllBytes()).isEqualTo(layer);
    }

    @Test
    void aLayerThatIsNotDeduplicatedIsNotRestored() throws Exception {
        assertThat(restorer.open(Digest.sha256(new byte[] {1}), 0, -1)).isEmpty();
        assertThat(restorer.size(Digest.sha256(new byte[] {1}))).isEmpty();
    }

    private void runHeldRebuilds() {
        heldRebuilds.runHeld();
    }

    private byte[] deduplicated(byte[] layer) throws IOException {
        return DeduplicatedLayers.deduplicated(blobs, metadata.dedupIndex(), metadata.gcIndex(), dir.resolve("scratch"), layer);
    }

    /** Flips a byte in the middle of every blob that is not a layer record (the packs). */
    private void damageEveryPack() throws IOException {
        try (var files = Files.walk(dir.resolve("data").resolve("blobs"))) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                byte[] head = Files.readAllBytes(file);
                if (head.length > 4 && head[0] == 'L' && head[1] == 'F') {
                    continue;
                }
                try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.READ)) {
                    ByteBuffer one = ByteBuffer.allocate(1);
                    channel.read(one, head.length / 2);
                    one.put(0, (byte) (one.get(0) ^ 0x55)).rewind();
                    channel.write(one, head.length / 2);
                }
            }
        }
    }

    private static byte[] layer(Random random, int files) throws IOException {
        return DeduplicatedLayers.layer(random, files);
    }

    /** A gzip layer of {@code files} files of random bytes, 0 to 65 KB, and two of 5 MB among them. */
    private static byte[] layerWithLargeFiles(Random random, int files) throws IOException {
        ByteArrayOutputStream blob = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(new GZIPOutputStream(blob))) {
            for (int i = 0; i < files; i++) {
                byte[] content = new byte[i == files / 3 || i == 2 * files / 3 ? 5_000_000 : random.nextInt(65_000)];
                random.nextBytes(content);
                TarArchiveEntry entry = new TarArchiveEntry("file-" + i);
                entry.setSize(content.length);
                tar.putArchiveEntry(entry);
                tar.write(content);
                tar.closeArchiveEntry();
            }
        }
        return blob.toByteArray();
    }
}
