package dev.layerfold.benchmark.gc;

import dev.layerfold.benchmark.BenchmarkReport;
import dev.layerfold.benchmark.WorkDirectory;
import dev.layerfold.dedup.codec.LayerRebuilder;
import dev.layerfold.dedup.codec.LayerSplitter;
import dev.layerfold.dedup.codec.identify.StandardEncoders;
import dev.layerfold.dedup.pipeline.DedupLimits;
import dev.layerfold.dedup.pipeline.DedupOutcome;
import dev.layerfold.dedup.pipeline.DedupSettings;
import dev.layerfold.dedup.pipeline.IntactCopyPolicy;
import dev.layerfold.dedup.pipeline.LayerDeduplicator;
import dev.layerfold.dedup.store.ContentAddressedWriter;
import dev.layerfold.dedup.store.LivePackCopier;
import dev.layerfold.dedup.store.StoredFiles;
import dev.layerfold.gc.GarbageCollector;
import dev.layerfold.gc.GcSettings;
import dev.layerfold.gc.PackCompaction;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.dedup.DedupIndex;
import dev.layerfold.storage.dedup.FileLocation;
import dev.layerfold.storage.dedup.LayerState;
import dev.layerfold.storage.dedup.LayerTask;
import dev.layerfold.storage.dedup.PackUse;
import dev.layerfold.storage.embedded.SqliteMetadataStore;
import dev.layerfold.storage.filesystem.FilesystemBlobStore;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

/**
 * Pack rewriting on the embedded backend, in process: layers deduplicated into packs of their own, a
 * second layer of each keeping half its files, the first released and its files forgotten, so that
 * every pack is about half dead. Then the collector's {@link PackCompaction} (unpaced) rewrites them.
 * Reports the bytes reclaimed and the time per GB of packs rewritten, against copying the same packs
 * whole through the same blob store in the same run (the floor: a rewrite reads each pack once, hashes
 * every frame's content to know whose it is, and writes the live half).
 * {@code -Dlayerfold.benchmark.gc-pack-mib=N} sets the packs' total size (default 256).
 */
final class PackRewriteScenario {

    private static final String SUITE = "gc";
    private static final int FILES_PER_LAYER = 64;
    private static final int FILE_SIZE = 64 << 10;
    private static final String GZIP_LAYER = "application/vnd.oci.image.layer.v1.tar+gzip";

    void measure(Path work, BenchmarkReport report) throws Exception {
        long mib = Long.getLong("layerfold.benchmark.gc-pack-mib", 256);
        Path dir = Files.createTempDirectory(work, "packs-");
        try (SqliteMetadataStore metadata = new SqliteMetadataStore(dir.resolve("metadata.db"))) {
            FilesystemBlobStore blobs = new FilesystemBlobStore(dir.resolve("data"));
            DedupIndex index = metadata.dedupIndex();
            LayerDeduplicator deduplicator = new LayerDeduplicator(blobs, index, metadata.gcIndex(), new LayerSplitter(StandardEncoders.identifier()),
                    new LayerRebuilder(StandardEncoders.factory()),
                    new DedupSettings(dir.resolve("scratch"), 3, 64L << 20, Duration.ofMinutes(15), DedupLimits.DEFAULT),
                    IntactCopyPolicy.NO_COPIES);
            Random random = new Random(15);
            long target = mib << 20;
            long packBytes = 0;
            int layers = 0;
            while (packBytes < target) {
                long seed = random.nextLong();
                Digest released = deduplicate(blobs, deduplicator, layer(new Random(seed), FILES_PER_LAYER));
                deduplicate(blobs, deduplicator, layer(new Random(seed), FILES_PER_LAYER / 2));
                Map<Digest, FileLocation> files = new StoredFiles(blobs).files(
                        ((LayerState.Deduplicated) index.layer(released).orElseThrow()).record());
                packBytes += blobs.size(files.values().iterator().next().pack()).orElseThrow();
                index.releaseLayer(released, files.keySet());
                index.forgetUnreferenced(files.keySet(), Long.MAX_VALUE);
                layers++;
            }
            List<PackUse> sparse = index.sparsePacks(0.6, Integer.MAX_VALUE);
            System.out.println("packs: " + sparse.size() + " of " + layers + " layers, " + packBytes + " bytes, live share about "
                    + String.format("%.2f", sparse.stream().mapToDouble(PackUse::liveShare).average().orElse(0)));

            long copyStart = System.nanoTime();
            ContentAddressedWriter writer = new ContentAddressedWriter(blobs);
            List<Digest> copies = new ArrayList<>();
            for (PackUse pack : sparse) {
                // The peer: the same packs read and written whole, to another name (a byte appended).
                try (InputStream in = blobs.open(pack.pack(), 0, -1).orElseThrow()) {
                    copies.add(writer.write(new SequenceInputStream(in, new ByteArrayInputStream(new byte[] {1}))));
                }
            }
            double copySeconds = (System.nanoTime() - copyStart) / 1e9;
            for (Digest copy : copies) {
                blobs.delete(copy);
            }

            GcSettings settings = new GcSettings(Duration.ZERO, 1e9, Integer.MAX_VALUE, Duration.ZERO, 0.6, Duration.ZERO,
                    1e15, 0);
            long start = System.nanoTime();
            PackCompaction.Result result = new PackCompaction(blobs, index, new LivePackCopier(blobs, index), settings,
                    Clock.systemUTC(), GarbageCollector.Observer.NONE).run(() -> true);
            double seconds = (System.nanoTime() - start) / 1e9;
            double gb = packBytes / 1e9;
            System.out.println("rewrite: " + result);
            report.value(SUITE, "packs rewritten", "packs", new double[] {result.packsRewritten()});
            report.value(SUITE, "pack bytes reclaimed", "%", new double[] {100.0 * result.bytesReclaimed() / packBytes});
            report.compare(SUITE, "pack rewrite time per GB of packs", "s", new double[] {seconds / gb},
                    new double[] {copySeconds / gb}, "whole copy", false);
        } finally {
            WorkDirectory.deleteRecursively(dir);
        }
    }

    private static Digest deduplicate(FilesystemBlobStore blobs, LayerDeduplicator deduplicator, byte[] layer) throws IOException {
        Digest digest = Digest.sha256(layer);
        String upload = "push-" + digest.hex();
        blobs.startUpload(upload);
        blobs.append(upload, new ByteArrayInputStream(layer));
        blobs.publish(upload, digest);
        DedupOutcome outcome = deduplicator.deduplicate(new LayerTask(digest, GZIP_LAYER, layer.length), "benchmark");
        if (outcome.kind() != DedupOutcome.Kind.DEDUPLICATED && outcome.kind() != DedupOutcome.Kind.ALREADY_DONE) {
            throw new IllegalStateException("a benchmark layer was not deduplicated: " + outcome);
        }
        return digest;
    }

    /** A gzip'd tar of files of text-like bytes (about 2:1 under zstd), which the JDK's zlib encoder reproduces. */
    private static byte[] layer(Random random, int files) throws IOException {
        ByteArrayOutputStream blob = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(new GZIPOutputStream(blob))) {
            for (int i = 0; i < files; i++) {
                byte[] content = new byte[FILE_SIZE];
                for (int j = 0; j < content.length; j++) {
                    content[j] = (byte) ('a' + random.nextInt(20));
                }
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
