package dev.layerfold.dedup.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.luben.zstd.ZstdOutputStream;
import dev.layerfold.dedup.codec.zstd.klauspost.KlauspostSettings;
import dev.layerfold.dedup.codec.zstd.klauspost.KlauspostZstdOracle;
import dev.layerfold.dedup.codec.LayerRebuilder;
import dev.layerfold.dedup.codec.LayerSplitter;
import dev.layerfold.dedup.codec.ZstdOracle;
import dev.layerfold.dedup.codec.identify.StandardEncoders;
import dev.layerfold.dedup.store.LayerRecord;
import dev.layerfold.dedup.store.StoredFiles;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.dedup.DedupIndex;
import dev.layerfold.storage.dedup.DedupTotals;
import dev.layerfold.storage.dedup.LayerState;
import dev.layerfold.storage.dedup.LayerTask;
import dev.layerfold.storage.embedded.SqliteMetadataStore;
import dev.layerfold.storage.filesystem.FilesystemBlobStore;
import dev.layerfold.storage.gc.GcIndex;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The pipeline on one layer at a time, over the real embedded stores. */
class LayerDeduplicatorTest {

    private static final String GZIP_LAYER = "application/vnd.oci.image.layer.v1.tar+gzip";
    private static final String PLAIN_LAYER = "application/vnd.oci.image.layer.v1.tar";
    private static final String ZSTD_LAYER = "application/vnd.oci.image.layer.v1.tar+zstd";

    @TempDir
    Path dir;

    private FilesystemBlobStore blobs;
    private SqliteMetadataStore metadata;
    private DedupIndex index;

    @BeforeEach
    void stores() throws IOException {
        blobs = new FilesystemBlobStore(dir.resolve("data"));
        metadata = new SqliteMetadataStore(dir.resolve("metadata.db"));
        index = metadata.dedupIndex();
    }

    @AfterEach
    void close() {
        metadata.close();
    }

    private LayerDeduplicator deduplicator(DedupLimits limits) {
        return deduplicator(index, limits);
    }

    private LayerDeduplicator deduplicator(DedupIndex index, DedupLimits limits) {
        return deduplicator(index, limits, IntactCopyPolicy.NO_COPIES);
    }

    private LayerDeduplicator deduplicator(DedupIndex index, DedupLimits limits, IntactCopyPolicy copies) {
        return new LayerDeduplicator(blobs, index, metadata.gcIndex(), new LayerSplitter(StandardEncoders.identifier()),
                new LayerRebuilder(StandardEncoders.factory()),
                new DedupSettings(dir.resolve("scratch"), 3, 64 << 20, Duration.ofMinutes(1), limits), copies);
    }

    @Test
    void inSelectiveModeAHotLayerIsDeduplicatedButKeepsItsIntactBlobAndAColdOneIsThinned() throws Exception {
        byte[] hot = push(gzipLayer(files(new Random(21), "hot/", 6)));
        byte[] cold = push(gzipLayer(files(new Random(22), "cold/", 6)));
        metadata.layerPulls().record(Map.of(Digest.sha256(hot), 5L, Digest.sha256(cold), 1L));
        IntactCopyPolicy selective = new IntactCopyPolicy(metadata.layerPulls(), true, 3, Duration.ZERO);

        assertThat(deduplicator(index, DedupLimits.DEFAULT, selective).deduplicate(task(hot), "w").kind())
                .isEqualTo(DedupOutcome.Kind.DEDUPLICATED);
        assertThat(deduplicator(index, DedupLimits.DEFAULT, selective).deduplicate(task(cold), "w").kind())
                .isEqualTo(DedupOutcome.Kind.DEDUPLICATED);

        assertThat(blobs.size(Digest.sha256(hot))).as("hot: intact").contains((long) hot.length);
        assertThat(blobs.size(Digest.sha256(cold))).as("cold: thinned").isEmpty();
        assertThat(rebuilt(hot)).as("the hot layer's recipe is proven all the same").isEqualTo(hot);
    }

    @Test
    void filesSharedByTwoLayersAreStoredOnceAndEachLayerRebuildsFromThem() throws Exception {
        Map<String, byte[]> base = files(new Random(1), "usr/", 20);
        byte[] first = push(gzipLayer(base));
        Map<String, byte[]> more = new LinkedHashMap<>(base);
        more.putAll(files(new Random(2), "app/", 3));
        byte[] second = push(gzipLayer(more));

        assertThat(deduplicate(first).kind()).isEqualTo(DedupOutcome.Kind.DEDUPLICATED);
        assertThat(deduplicate(second).kind()).isEqualTo(DedupOutcome.Kind.DEDUPLICATED);

        DedupTotals totals = index.totals();
        assertThat(totals.uniqueFiles()).isEqualTo(23);
        assertThat(totals.fileReferences()).isEqualTo(43);
        assertThat(totals.storedBytes()).isLessThan(first.length + second.length);
        assertThat(blobs.size(Digest.sha256(first))).as("thinned").isEmpty();
        assertThat(rebuilt(second)).isEqualTo(second);
    }

    @Test
    void anUncompressedTarLayerIsDeduplicatedAgainstAGzipOneAndRebuildsByteForByte() throws Exception {
        Map<String, byte[]> base = files(new Random(5), "usr/", 12);
        byte[] gzip = push(gzipLayer(base));
        Map<String, byte[]> more = new LinkedHashMap<>(base);
        more.putAll(files(new Random(6), "app/", 2));
        byte[] plain = push(tar(more));

        assertThat(deduplicate(gzip).kind()).isEqualTo(DedupOutcome.Kind.DEDUPLICATED);
        assertThat(deduplicator(DedupLimits.DEFAULT).deduplicate(new LayerTask(Digest.sha256(plain), PLAIN_LAYER, plain.length), "w").kind())
                .isEqualTo(DedupOutcome.Kind.DEDUPLICATED);

        assertThat(index.totals().uniqueFiles()).as("the tar layer's 12 shared files are not stored again").isEqualTo(14);
        assertThat(blobs.size(Digest.sha256(plain))).as("thinned").isEmpty();
        assertThat(rebuilt(plain)).isEqualTo(plain);
    }

    /** zstd-jni's ZstdOutputStream: a Java program calling libzstd 1.5.7, as the CLI and other such programs do. */
    @Test
    void aZstdLayerSharesItsFilesWithAGzipLayerOfTheSameTarAndRebuildsByteForByte() throws Exception {
        assertZstdLayerSharesItsFilesWithAGzipLayerOfTheSameTar(tar -> zstdLayer(tar, 3, false));
    }

    /** klauspost/compress 1.18.0's zstd Writer at its default, as podman, buildah and containerd write zstd layers. */
    @Test
    void aKlauspostZstdLayerSharesItsFilesWithAGzipLayerOfTheSameTarAndRebuildsByteForByte() throws Exception {
        assertZstdLayerSharesItsFilesWithAGzipLayerOfTheSameTar(tar -> KlauspostZstdOracle.compress(KlauspostSettings.SPEED_DEFAULT, 2, tar));
    }

    /** podman's zstd:chunked (containers/storage's compressor at zstd level 3): a frame per file, a flushed last frame, its TOC kept verbatim. */
    @Test
    void aZstdChunkedLayerSharesItsFilesWithAGzipLayerOfTheSameTarAndRebuildsByteForByte() throws Exception {
        assertZstdLayerSharesItsFilesWithAGzipLayerOfTheSameTar(tar -> ZstdOracle.zstdChunked(Files.createDirectories(dir.resolve("chunked")), tar, 3));
    }

    /** A zstd producer, as a test calls it. */
    @FunctionalInterface
    private interface ZstdProducer {
        byte[] compress(byte[] tar) throws Exception;
    }

    private void assertZstdLayerSharesItsFilesWithAGzipLayerOfTheSameTar(ZstdProducer producer) throws Exception {
        Map<String, byte[]> base = files(new Random(8), "usr/", 12);
        byte[] gzip = push(gzipLayer(base));
        Map<String, byte[]> more = new LinkedHashMap<>(base);
        more.putAll(files(new Random(9), "app/", 2));
        byte[] zstd = push(producer.compress(tar(more)));

        assertThat(deduplicate(gzip).kind()).isEqualTo(DedupOutcome.Kind.DEDUPLICATED);
        assertThat(deduplicator(DedupLimits.DEFAULT).deduplicate(new LayerTask(Digest.sha256(zstd), ZSTD_LAYER, zstd.length), "w").kind())
                .isEqualTo(DedupOutcome.Kind.DEDUPLICATED);

        assertThat(index.totals().uniqueFiles()).as("the zstd layer's 12 shared files are not stored again").isEqualTo(14);
        assertThat(blobs.size(Digest.sha256(zstd))).as("thinned").isEmpty();
        assertThat(rebuilt(zstd)).isEqualTo(zstd);
    }

    @Test
    void aZstdLayerNoKnownEncoderReproducesStaysIntactAndSaysWhy() throws Exception {
        byte[] odd = push(zstdLayer(tar(files(new Random(10), "x/", 3)), 3, true));

        assertThat(deduplicator(DedupLimits.DEFAULT).deduplicate(new LayerTask(Digest.sha256(odd), ZSTD_LAYER, odd.length), "w"))
                .isEqualTo(DedupOutcome.intact("zstd not reproducible"));
        assertThat(index.layer(Digest.sha256(odd))).contains(new LayerState.Intact("zstd not reproducible"));
        assertThat(blobs.size(Digest.sha256(odd))).isPresent();
    }

    @Test
    void workersDeduplicatingLayersThatShareFilesAtOnceStoreEachFileOnce() throws Exception {
        Map<String, byte[]> shared = files(new Random(3), "lib/", 30);
        List<byte[]> layers = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Map<String, byte[]> files = new LinkedHashMap<>(shared);
            files.put("own-" + i, ("layer " + i).repeat(1000).getBytes());
            layers.add(push(gzipLayer(files)));
        }
        CyclicBarrier start = new CyclicBarrier(layers.size());
        ExecutorService workers = Executors.newFixedThreadPool(layers.size());
        try {
            List<Future<DedupOutcome>> outcomes = new ArrayList<>();
            for (int i = 0; i < layers.size(); i++) {
                byte[] layer = layers.get(i);
                String worker = "worker-" + i;
                outcomes.add(workers.submit((Callable<DedupOutcome>) () -> {
                    start.await();
                    DedupOutcome outcome = deduplicator(DedupLimits.DEFAULT).deduplicate(task(layer), worker);
                    return outcome.kind() == DedupOutcome.Kind.RETRY ? deduplicator(DedupLimits.DEFAULT).deduplicate(task(layer), worker) : outcome;
                }));
            }
            for (Future<DedupOutcome> outcome : outcomes) {
                assertThat(outcome.get().kind()).isEqualTo(DedupOutcome.Kind.DEDUPLICATED);
            }
        } finally {
            workers.shutdownNow();
        }
        assertThat(index.totals().uniqueFiles()).isEqualTo(34);
        for (byte[] layer : layers) {
            assertThat(rebuilt(layer)).isEqualTo(layer);
        }
    }

    @Test
    void aGzipBombStaysIntactWithinItsLimits() throws Exception {
        // 64 MiB of zeros in one tar entry compress to about 64 KiB; the limit allows 16 MiB.
        byte[] bomb = push(gzipLayer(Map.of("zeros", new byte[64 << 20])));

        DedupOutcome outcome = deduplicator(new DedupLimits(100, 16 << 20, 1000, Duration.ofMinutes(1))).deduplicate(task(bomb), "w");

        assertThat(outcome).isEqualTo(DedupOutcome.intact("too costly"));
        assertThat(index.layer(Digest.sha256(bomb))).contains(new LayerState.Intact("too costly"));
        assertThat(blobs.size(Digest.sha256(bomb))).contains((long) bomb.length);
    }

    @Test
    void aLayerNoKnownEncoderReproducesStaysIntact() throws Exception {
        byte[] odd = push(storedBlocksGzip(tar(files(new Random(4), "x/", 3)), 1000));

        assertThat(deduplicate(odd)).isEqualTo(DedupOutcome.intact("not reproducible"));
        assertThat(blobs.size(Digest.sha256(odd))).isPresent();
    }

    @Test
    void aLayerPushedAgainAfterItWasThinnedIsThinnedAgain() throws Exception {
        byte[] layer = push(gzipLayer(files(new Random(5), "etc/", 5)));
        deduplicate(layer);
        push(layer);

        assertThat(deduplicate(layer).kind()).isEqualTo(DedupOutcome.Kind.ALREADY_DONE);

        assertThat(blobs.size(Digest.sha256(layer))).isEmpty();
        assertThat(rebuilt(layer)).isEqualTo(layer);
    }

    @Test
    void layersThatAreNotTarLayersOrNotWhatTheirMediaTypeSaysStayIntactAndSayWhy() throws Exception {
        byte[] chart = push("a helm chart".getBytes());
        assertThat(deduplicator(DedupLimits.DEFAULT).deduplicate(new LayerTask(Digest.sha256(chart),
                "application/vnd.cncf.helm.chart.content.v1.tar+gzip", chart.length), "w")).isEqualTo(DedupOutcome.intact("not a tar layer"));
        byte[] zstd = push(new byte[] {0x28, (byte) 0xb5, 0x2f, (byte) 0xfd, 0});
        assertThat(deduplicator(DedupLimits.DEFAULT).deduplicate(new LayerTask(Digest.sha256(zstd), ZSTD_LAYER, zstd.length), "w"))
                .isEqualTo(DedupOutcome.intact("damaged"));
    }

    @Test
    void aLayerOfManySmallFilesLargeOnesAndRepeatsIsStoredOnceAndRebuildsByteForByte() throws Exception {
        Random random = new Random(7);
        Map<String, byte[]> earlier = files(random, "etc/", 40);
        deduplicate(push(gzipLayer(earlier)));
        Map<String, byte[]> files = new LinkedHashMap<>(earlier);
        for (int i = 0; i < PackingSink.PENDING_FILES + 200; i++) {
            files.put("share/doc/" + i, ("small file " + i % 700 + " ").repeat(3).getBytes());
        }
        files.put("bin/spilled", text(random, PackingSink.MEMORY_LIMIT + 300_000));
        files.put("bin/streamed", text(random, 5 << 20));
        files.put("bin/streamed-again", files.get("bin/streamed"));
        byte[] layer = push(gzipLayer(files));

        assertThat(deduplicate(layer).kind()).isEqualTo(DedupOutcome.Kind.DEDUPLICATED);

        assertThat(index.totals().uniqueFiles()).isEqualTo(40 + 700 + 2);
        assertThat(rebuilt(layer)).isEqualTo(layer);
        try (Stream<Path> scratch = Files.list(dir.resolve("scratch"))) {
            assertThat(scratch).as("no scratch file is left behind").isEmpty();
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void aStoredFileWhoseBytesChangedBeforeTheProofLeavesTheLayerIntact() throws Exception {
        Map<String, byte[]> files = files(new Random(8), "opt/", 5);
        byte[] incompressible = new byte[200_000];
        new Random(9).nextBytes(incompressible);
        files.put("opt/random", incompressible);
        byte[] layer = push(gzipLayer(files));
        Digest layerDigest = Digest.sha256(layer);
        // zstd keeps random bytes as they are, so the last byte of the last frame is the last byte of
        // that file: flipped, its frame still decompresses, and only the layer's digest can tell.
        BlobStore damaging = (BlobStore) Proxy.newProxyInstance(BlobStore.class.getClassLoader(), new Class<?>[] {BlobStore.class},
                (proxy, method, arguments) -> {
                    Object result;
                    try {
                        result = method.invoke(blobs, arguments);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                    if (method.getName().equals("open") && !arguments[0].equals(layerDigest) && (long) arguments[2] > 0) {
                        byte[] bytes = ((Optional<InputStream>) result).orElseThrow().readAllBytes();
                        bytes[bytes.length - 1] ^= 1;
                        return Optional.of(new ByteArrayInputStream(bytes));
                    }
                    return result;
                });
        LayerDeduplicator deduplicator = new LayerDeduplicator(damaging, index, metadata.gcIndex(), new LayerSplitter(StandardEncoders.identifier()),
                new LayerRebuilder(StandardEncoders.factory()),
                new DedupSettings(dir.resolve("scratch"), 3, 64 << 20, Duration.ofMinutes(1), DedupLimits.DEFAULT),
                IntactCopyPolicy.NO_COPIES);

        DedupOutcome outcome = deduplicator.deduplicate(task(layer), "w");

        assertThat(outcome.kind()).isEqualTo(DedupOutcome.Kind.INTACT);
        assertThat(outcome.reason()).isEqualTo("rebuild mismatch");
        assertThat(blobs.size(layerDigest)).as("the intact blob is kept").contains((long) layer.length);
    }

    /**
     * The leak the gc soak found: the collector condemned a layer no manifest named any more while a
     * worker split it, saw no deduplicated state, deleted the blob and buried the mark; the worker then
     * committed, and the layer's files were kept for good. Now the commit is fenced by the GC index.
     */
    @Test
    void aLayerTheCollectorDeletedWhileItWasSplitIsNotCommittedAndItsNewFilesAreForgotten() throws Exception {
        byte[] layer = push(gzipLayer(files(new Random(31), "gone/", 8)));
        GcIndex gc = metadata.gcIndex();
        gc.touch(Digest.sha256(layer));

        DedupOutcome outcome = deduplicatorCollectingOnOpen(layer, condemnation -> {
            blobs.delete(condemnation.digest());
            gc.bury(condemnation);
        }).deduplicate(task(layer), "w");

        assertThat(outcome.kind()).isEqualTo(DedupOutcome.Kind.ALREADY_DONE);
        assertThat(index.layer(Digest.sha256(layer))).isEmpty();
        DedupTotals totals = index.totals();
        assertThat(totals.layersDeduplicated()).isZero();
        assertThat(totals.uniqueFiles()).as("forgotten: no layer will ever release them").isZero();
        assertThat(totals.fileReferences()).isZero();
    }

    @Test
    void aLayerCondemnedWhenItsCommitComesIsTriedAgainLaterAndCommitsNothingNow() throws Exception {
        byte[] layer = push(gzipLayer(files(new Random(32), "condemned/", 8)));
        metadata.gcIndex().touch(Digest.sha256(layer));

        DedupOutcome outcome = deduplicatorCollectingOnOpen(layer, condemnation -> { }).deduplicate(task(layer), "w");

        assertThat(outcome.kind()).isEqualTo(DedupOutcome.Kind.RETRY);
        assertThat(index.layer(Digest.sha256(layer))).isEmpty();
        assertThat(index.totals().uniqueFiles()).isZero();
        assertThat(blobs.size(Digest.sha256(layer))).as("the collector deletes it, not the worker").contains((long) layer.length);
    }

    @Test
    void aDeduplicatedLayerBecomesACandidateSoTheCollectorJudgesItAgain() throws Exception {
        byte[] layer = push(gzipLayer(files(new Random(33), "kept/", 4)));

        assertThat(deduplicator(DedupLimits.DEFAULT).deduplicate(task(layer), "w").kind()).isEqualTo(DedupOutcome.Kind.DEDUPLICATED);

        assertThat(metadata.gcIndex().candidates(Duration.ZERO, 10)).containsExactly(Digest.sha256(layer));
    }

    private interface Collection {
        void run(GcIndex.Condemnation condemnation) throws IOException;
    }

    /** A deduplicator whose first read of the layer is followed by the collector condemning it and then {@code collection}. */
    private LayerDeduplicator deduplicatorCollectingOnOpen(byte[] layer, Collection collection) {
        Digest layerDigest = Digest.sha256(layer);
        BlobStore collected = (BlobStore) Proxy.newProxyInstance(BlobStore.class.getClassLoader(), new Class<?>[] {BlobStore.class},
                (proxy, method, arguments) -> {
                    Object result;
                    try {
                        result = method.invoke(blobs, arguments);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                    if (method.getName().equals("open") && arguments[0].equals(layerDigest)) {
                        collection.run(metadata.gcIndex().condemn(layerDigest, Duration.ZERO).orElseThrow());
                    }
                    return result;
                });
        return new LayerDeduplicator(collected, index, metadata.gcIndex(), new LayerSplitter(StandardEncoders.identifier()),
                new LayerRebuilder(StandardEncoders.factory()),
                new DedupSettings(dir.resolve("scratch"), 3, 64 << 20, Duration.ofMinutes(1), DedupLimits.DEFAULT),
                IntactCopyPolicy.NO_COPIES);
    }

    /**
     * A worker that dies after storing a layer's packs and before committing it (a kill -9 while it
     * writes the record, proves the rebuild or commits) leaves those packs stored and indexed; the
     * retry finds the files stored and publishes no pack. The packs still count as stored bytes: the
     * index counts each pack when it is recorded, not each layer when it is committed.
     */
    @Test
    void packsStoredByAnAttemptThatDiedBeforeCommittingAreCountedAsStored() throws Exception {
        byte[] layer = push(gzipLayer(files(new Random(6), "srv/", 12)));
        DedupIndex dyingBeforeCommit = (DedupIndex) Proxy.newProxyInstance(DedupIndex.class.getClassLoader(),
                new Class<?>[] {DedupIndex.class}, (proxy, method, arguments) -> {
                    if (method.getName().equals("commitLayer")) {
                        throw new IOException("the worker was killed before it committed");
                    }
                    try {
                        return method.invoke(index, arguments);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        assertThatThrownBy(() -> deduplicator(dyingBeforeCommit, DedupLimits.DEFAULT).deduplicate(task(layer), "dies")).isInstanceOf(IOException.class);

        assertThat(deduplicate(layer).kind()).isEqualTo(DedupOutcome.Kind.DEDUPLICATED);

        // The intact blob is gone; what the store holds are the layer's packs and its one record.
        long packsAndRecord;
        try (Stream<Path> stored = Files.walk(dir.resolve("data").resolve("blobs"))) {
            packsAndRecord = stored.filter(Files::isRegularFile).mapToLong(file -> file.toFile().length()).sum();
        }
        assertThat(index.totals().storedBytes()).isEqualTo(packsAndRecord);
    }

    private DedupOutcome deduplicate(byte[] layer) throws IOException {
        return deduplicator(DedupLimits.DEFAULT).deduplicate(task(layer), "w");
    }

    private static LayerTask task(byte[] layer) {
        return new LayerTask(Digest.sha256(layer), GZIP_LAYER, layer.length);
    }

    private byte[] rebuilt(byte[] layer) throws IOException {
        LayerState.Deduplicated state = (LayerState.Deduplicated) index.layer(Digest.sha256(layer)).orElseThrow();
        StoredFiles stored = new StoredFiles(blobs);
        LayerRecord record = stored.record(state.record());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new LayerRebuilder(StandardEncoders.factory()).rebuild(record.recipe(), stored.of(record), out);
        return out.toByteArray();
    }

    private byte[] push(byte[] blob) throws IOException {
        String upload = "u-" + System.nanoTime();
        blobs.startUpload(upload);
        blobs.append(upload, new ByteArrayInputStream(blob));
        blobs.publish(upload, Digest.sha256(blob));
        return blob;
    }

    private static Map<String, byte[]> files(Random random, String prefix, int count) {
        Map<String, byte[]> files = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            byte[] content = new byte[2_000 + random.nextInt(40_000)];
            for (int j = 0; j < content.length; j++) {
                content[j] = (byte) ('a' + random.nextInt(12));
            }
            files.put(prefix + "f" + i, content);
        }
        return files;
    }

    /** Text that zstd and deflate compress, as most files in layers are. */
    private static byte[] text(Random random, int size) {
        byte[] content = new byte[size];
        for (int j = 0; j < content.length; j++) {
            content[j] = (byte) ('a' + random.nextInt(12));
        }
        return content;
    }

    private static byte[] tar(Map<String, byte[]> files) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        writeTar(files, out);
        return out.toByteArray();
    }

    private static void writeTar(Map<String, byte[]> files, OutputStream out) throws IOException {
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(out)) {
            for (Map.Entry<String, byte[]> file : files.entrySet()) {
                TarArchiveEntry entry = new TarArchiveEntry(file.getKey());
                entry.setSize(file.getValue().length);
                tar.putArchiveEntry(entry);
                tar.write(file.getValue());
                tar.closeArchiveEntry();
            }
        }
    }

    /** As Java tools write layers: zlib level 6 through GZIPOutputStream. */
    private static byte[] gzipLayer(Map<String, byte[]> files) throws IOException {
        ByteArrayOutputStream blob = new ByteArrayOutputStream();
        writeTar(files, new GZIPOutputStream(blob, 64 * 1024));
        return blob.toByteArray();
    }

    /** A valid gzip member made of stored blocks of {@code blockSize} bytes: no encoder we know writes that. */
    /** {@code tar} through zstd-jni's stream at {@code level}; {@code oddWindow}: a window no level has by default (a setting not tried). */
    private static byte[] zstdLayer(byte[] tar, int level, boolean oddWindow) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZstdOutputStream zstd = new ZstdOutputStream(out, level)) {
            if (oddWindow) {
                zstd.setWindowLog(24);
            }
            zstd.write(tar);
        }
        return out.toByteArray();
    }

    private static byte[] storedBlocksGzip(byte[] data, int blockSize) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 0xff});
        for (int offset = 0; offset < data.length; offset += blockSize) {
            int length = Math.min(blockSize, data.length - offset);
            out.write(offset + length == data.length ? 1 : 0);
            out.write(length & 0xff);
            out.write(length >>> 8);
            out.write(~length & 0xff);
            out.write((~length >>> 8) & 0xff);
            out.write(data, offset, length);
        }
        CRC32 crc = new CRC32();
        crc.update(data);
        for (long value : new long[] {crc.getValue(), data.length}) {
            for (int i = 0; i < 4; i++) {
                out.write((int) (value >>> (8 * i)) & 0xff);
            }
        }
        return out.toByteArray();
    }
}
