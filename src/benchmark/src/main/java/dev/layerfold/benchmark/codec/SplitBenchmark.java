package dev.layerfold.benchmark.codec;

import dev.layerfold.benchmark.Benchmark;
import dev.layerfold.benchmark.BenchmarkReport;
import dev.layerfold.benchmark.WorkDirectory;
import dev.layerfold.dedup.codec.FileContentSource;
import dev.layerfold.dedup.codec.LayerRebuilder;
import dev.layerfold.dedup.codec.LayerSplitter;
import dev.layerfold.dedup.codec.SplitResult;
import dev.layerfold.dedup.codec.container.BlobInput;
import dev.layerfold.dedup.codec.container.DeflateMember;
import dev.layerfold.dedup.codec.container.GzipHeader;
import dev.layerfold.dedup.codec.deflate.klauspost.FlateRelease;
import dev.layerfold.dedup.codec.deflate.klauspost.PgzipEncoder;
import dev.layerfold.dedup.codec.identify.EncoderIdentifier;
import dev.layerfold.dedup.codec.identify.StandardEncoders;
import dev.layerfold.dedup.codec.io.FileSink;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;
import dev.layerfold.dedup.codec.recipe.FileRef;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.DataFormatException;
import java.util.zip.GZIPInputStream;
import java.util.zip.Inflater;

/**
 * Splitting a docker-like layer of up to 64 MiB of system files (hard links and symlinks store no
 * content, so the tar is often smaller), on one thread: throughput in MB of
 * uncompressed tar per CPU second of that thread (issue 4 targets at least 200 per core), against the floor of any split, plain
 * {@code java.util.zip} decompression plus a tar read of every body (commons-compress); the cost of
 * identifying the encoder among all standard candidates; the recipe's size as a share of the
 * compressed layer; and the rebuild's throughput. Beside the floor, the split's own unavoidable parts
 * measured alone in the same rounds: inflating the layer and SHA-256 of the tar and of the blob. Their
 * sum is the ceiling no split on this CPU can pass, each file's bytes being inflated and hashed once.
 * Then the same split and ceiling for a layer of small files (under 64 KiB, as in node_modules or
 * site-packages), where the per-file work (tar headers, the skeleton) weighs most.
 */
public final class SplitBenchmark implements Benchmark {

    private static final String SUITE = "split";
    private static final long LAYER_SIZE = 64L << 20;
    private static final long SMALL_FILE = 64L << 10;
    private static final int WARMUP = 2;
    private static final int ROUNDS = 5;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    /** LayerOfSystemFiles writes Go's fixed gzip header, without optional fields. */
    private static final int GZIP_HEADER = 10;

    @Override
    public String name() {
        return SUITE;
    }

    @Override
    public void run(BenchmarkReport report) throws Exception {
        Path work = Files.createTempDirectory("layerfold-split-benchmark-");
        try {
            LayerOfSystemFiles layer = LayerOfSystemFiles.build(Files.createDirectory(work.resolve("any")), LAYER_SIZE, Long.MAX_VALUE);
            System.out.printf("layer: %.1f MB tar, %.1f MB gzip (Go level 6)%n", layer.tar().length / 1e6, layer.gzip().length / 1e6);
            measure(layer, report);
            LayerOfSystemFiles small = LayerOfSystemFiles.build(Files.createDirectory(work.resolve("small")), LAYER_SIZE, SMALL_FILE);
            System.out.printf("layer of small files: %.1f MB tar, %.1f MB gzip (Go level 6)%n", small.tar().length / 1e6, small.gzip().length / 1e6);
            measureSmallFiles(small, report);
        } finally {
            WorkDirectory.deleteRecursively(work);
        }
    }

    private void measure(LayerOfSystemFiles layer, BenchmarkReport report) throws IOException {
        LayerSplitter identifying = new LayerSplitter(StandardEncoders.identifier());
        LayerSplitter notIdentifying = new LayerSplitter(new EncoderIdentifier(List.of(), StandardEncoders.factory(), 1));
        double megabytes = layer.tar().length / 1e6;
        // Outside the timed rounds: as an argument of the timed call it would hash the blob there.
        String knownDigest = layer.sha256();
        double[] split = new double[ROUNDS];
        double[] splitWithoutIdentify = new double[ROUNDS];
        double[] splitKnownDigest = new double[ROUNDS];
        double[] floor = new double[ROUNDS];
        double[] identifyMillis = new double[ROUNDS];
        double[] inflate = new double[ROUNDS];
        double[] sha256Tar = new double[ROUNDS];
        double[] sha256Blob = new double[ROUNDS];
        double[] ceiling = new double[ROUNDS];
        double[] ceilingKnownDigest = new double[ROUNDS];
        SplitResult result = null;
        for (int round = -WARMUP; round < ROUNDS; round++) {
            long t0 = cpuNanos();
            result = identifying.split(new ByteArrayInputStream(layer.gzip()), FileSink.discarding());
            long t1 = cpuNanos();
            notIdentifying.split(new ByteArrayInputStream(layer.gzip()), FileSink.discarding());
            long t2 = cpuNanos();
            readWithJavaUtilZip(layer.gzip());
            long t3 = cpuNanos();
            identifying.split(new ByteArrayInputStream(layer.gzip()), knownDigest, FileSink.discarding());
            long t4 = cpuNanos();
            inflateOnly(layer.gzip());
            long t5 = cpuNanos();
            sha256(layer.tar());
            long t6 = cpuNanos();
            sha256(layer.gzip());
            long t7 = cpuNanos();
            if (round >= 0) {
                split[round] = megabytes / ((t1 - t0) / 1e9);
                splitWithoutIdentify[round] = megabytes / ((t2 - t1) / 1e9);
                floor[round] = megabytes / ((t3 - t2) / 1e9);
                splitKnownDigest[round] = megabytes / ((t4 - t3) / 1e9);
                identifyMillis[round] = Math.max(0, ((t1 - t0) - (t2 - t1)) / 1e6);
                inflate[round] = megabytes / ((t5 - t4) / 1e9);
                sha256Tar[round] = megabytes / ((t6 - t5) / 1e9);
                sha256Blob[round] = megabytes / ((t7 - t6) / 1e9);
                ceilingKnownDigest[round] = megabytes / ((t6 - t4) / 1e9);
                ceiling[round] = megabytes / ((t7 - t4) / 1e9);
            }
        }
        System.out.println("identified: " + result.identifications());
        report.compare(SUITE, String.format("split %.0f MB layer", megabytes), "MB/cpu-s", split, floor, "gunzip+tar", true);
        report.compare(SUITE, "split, blob digest known (as pushed)", "MB/cpu-s", splitKnownDigest, floor, "gunzip+tar", true);
        report.compare(SUITE, "split without identification", "MB/cpu-s", splitWithoutIdentify, floor, "gunzip+tar", true);
        report.value(SUITE, "inflate only (java.util.zip)", "MB/cpu-s", inflate);
        report.value(SUITE, "sha256 of the tar only", "MB/cpu-s", sha256Tar);
        report.value(SUITE, "sha256 of the blob only (per tar MB)", "MB/cpu-s", sha256Blob);
        report.compare(SUITE, "split vs its ceiling", "MB/cpu-s", split, ceiling, "inflate+sha256 tar+blob", true);
        report.compare(SUITE, "split, digest known, vs its ceiling", "MB/cpu-s", splitKnownDigest, ceilingKnownDigest, "inflate+sha256 tar", true);
        report.value(SUITE, "identification cost (" + StandardEncoders.CANDIDATES.size() + " candidates)", "cpu-ms", identifyMillis);
        measureWorstCaseIdentification(layer, report, notIdentifying);
        report.value(SUITE, "recipe size / compressed layer", "%",
                new double[] {100.0 * result.recipe().toBytes().length / layer.gzip().length});
        report.value(SUITE, "recipe bytes per file", "B",
                new double[] {(double) result.recipe().toBytes().length / Math.max(1, result.recipe().skeleton().fileCount())});
        report.value(SUITE, "rebuild (Go level 6)", "MB/cpu-s", rebuildThroughput(identifying, layer.gzip(), megabytes, 1));
    }

    /**
     * Identification when the header points elsewhere (OS 3 and XFL 4, as pigz -1 writes: the right
     * encoder then starts only after the likeliest is rejected, together with all the others, which
     * costs what trying it last would), and when no candidate matches (the layer's own encoder left
     * out: an unknown producer). Each as CPU milliseconds above a split without identification, and
     * as a share of that split (issue 10's target: an unknown encoder rejected in under 5%).
     */
    private static void measureWorstCaseIdentification(LayerOfSystemFiles layer, BenchmarkReport report,
                                                       LayerSplitter notIdentifying) throws IOException {
        byte[] misleading = layer.gzip().clone();
        misleading[8] = 4;
        misleading[9] = 3;
        EncoderSpec actual = EncoderSpec.of(StandardEncoders.GO, 6);
        LayerSplitter identifying = new LayerSplitter(StandardEncoders.identifier());
        EncoderIdentifier unknownIdentifier = new EncoderIdentifier(
                StandardEncoders.CANDIDATES.stream().filter(spec -> !spec.equals(actual)).toList(),
                StandardEncoders.factory(), EncoderIdentifier.DEFAULT_BUDGET);
        LayerSplitter unknown = new LayerSplitter(unknownIdentifier);
        double[] rightOneLate = new double[ROUNDS];
        double[] noneMatches = new double[ROUNDS];
        double[] noneMatchesShare = new double[ROUNDS];
        SplitResult late = null;
        SplitResult none = null;
        for (int round = -WARMUP; round < ROUNDS; round++) {
            long t0 = cpuNanos();
            late = identifying.split(new ByteArrayInputStream(misleading), FileSink.discarding());
            long t1 = cpuNanos();
            none = unknown.split(new ByteArrayInputStream(layer.gzip()), FileSink.discarding());
            long t2 = cpuNanos();
            notIdentifying.split(new ByteArrayInputStream(layer.gzip()), FileSink.discarding());
            long t3 = cpuNanos();
            if (round >= 0) {
                rightOneLate[round] = Math.max(0, ((t1 - t0) - (t3 - t2)) / 1e6);
                noneMatches[round] = Math.max(0, ((t2 - t1) - (t3 - t2)) / 1e6);
                noneMatchesShare[round] = 100.0 * Math.max(0, (t2 - t1) - (t3 - t2)) / (t3 - t2);
            }
        }
        System.out.println("header pointing elsewhere: " + late.identifications() + "; none matching: " + none.identifications());
        report.value(SUITE, "identification, header pointing elsewhere", "cpu-ms", rightOneLate);
        report.value(SUITE, "identification, no candidate matches (" + (StandardEncoders.CANDIDATES.size() - 1) + ")", "cpu-ms", noneMatches);
        report.value(SUITE, "no candidate matches / split without identification", "%", noneMatchesShare);
        measureIdentificationAlone(layer, misleading, report, notIdentifying, unknownIdentifier);
        measurePgzipIdentification(layer, report, notIdentifying);
    }

    /**
     * Identification of the same tar as pgzip writes it for podman, buildah and skopeo (the default
     * level, 1 MiB blocks) over klauspost/compress 1.15.12 and 1.20.3: Go 1.27's deflate and the
     * releases agree for a while, so the right candidate runs through two pgzip blocks before it is
     * taken, after the wrong ones tried before it. Timed inside the identifier's calls, as above.
     */
    private static void measurePgzipIdentification(LayerOfSystemFiles layer, BenchmarkReport report, LayerSplitter notIdentifying)
            throws IOException {
        EncoderIdentifier all = StandardEncoders.identifier();
        for (FlateRelease release : new FlateRelease[] {FlateRelease.COMPRESS_1_15_12, FlateRelease.COMPRESS_1_20_3}) {
            byte[] gzip = layer.gzipWith(out -> PgzipEncoder.create(out, -1, PgzipEncoder.DEFAULT_BLOCK_SIZE, release));
            System.out.println("pgzip over " + release + ": "
                    + new LayerSplitter(all).split(new ByteArrayInputStream(gzip), FileSink.discarding()).identifications());
            double[] millis = new double[ROUNDS];
            double[] share = new double[ROUNDS];
            for (int round = -WARMUP; round < ROUNDS; round++) {
                double identifyMillis = identificationMillis(all, gzip);
                long t0 = cpuNanos();
                notIdentifying.split(new ByteArrayInputStream(gzip), FileSink.discarding());
                double splitMillis = (cpuNanos() - t0) / 1e6;
                if (round >= 0) {
                    millis[round] = identifyMillis;
                    share[round] = 100 * identifyMillis / splitMillis;
                }
            }
            report.value(SUITE, "identification alone, pgzip over " + release, "cpu-ms", millis);
            report.value(SUITE, "identification alone, pgzip over " + release + " / split without identification", "%", share);
        }
    }

    /**
     * The same two cases timed inside the identification calls only, as the difference of two splits
     * of 200-300 cpu-ms each is at the level of their noise once identification costs a few
     * milliseconds: CPU time spent in the identifier while the member is read, against a split
     * without identification measured in the same rounds.
     */
    private static void measureIdentificationAlone(LayerOfSystemFiles layer, byte[] misleading, BenchmarkReport report,
                                                   LayerSplitter notIdentifying, EncoderIdentifier unknown) throws IOException {
        EncoderIdentifier all = StandardEncoders.identifier();
        double[] late = new double[ROUNDS];
        double[] none = new double[ROUNDS];
        double[] noneShare = new double[ROUNDS];
        for (int round = -WARMUP; round < ROUNDS; round++) {
            double lateMillis = identificationMillis(all, misleading);
            double noneMillis = identificationMillis(unknown, layer.gzip());
            long t0 = cpuNanos();
            notIdentifying.split(new ByteArrayInputStream(layer.gzip()), FileSink.discarding());
            double splitMillis = (cpuNanos() - t0) / 1e6;
            if (round >= 0) {
                late[round] = lateMillis;
                none[round] = noneMillis;
                noneShare[round] = 100 * noneMillis / splitMillis;
            }
        }
        report.value(SUITE, "identification alone, header pointing elsewhere", "cpu-ms", late);
        report.value(SUITE, "identification alone, no candidate matches", "cpu-ms", none);
        report.value(SUITE, "identification alone, no candidate matches / split without identification", "%", noneShare);
    }

    /** CPU time spent in the identifier's calls while the layer's one member is read. */
    private static double identificationMillis(EncoderIdentifier identifier, byte[] gzip) throws IOException {
        BlobInput in = new BlobInput(new ByteArrayInputStream(gzip), 64 * 1024, false);
        GzipHeader header = GzipHeader.read(in);
        long[] spent = new long[1];
        long t0 = cpuNanos();
        EncoderIdentifier.Session session = identifier.start(header);
        spent[0] += cpuNanos() - t0;
        DeflateMember member = new DeflateMember(64 * 1024);
        try {
            member.read(in, new DeflateMember.Listener() {
                @Override
                public void deflated(byte[] data, int offset, int length) {
                    long t = cpuNanos();
                    session.deflated(data, offset, length);
                    spent[0] += cpuNanos() - t;
                }

                @Override
                public void inflated(byte[] data, int offset, int length) {
                    long t = cpuNanos();
                    session.inflated(data, offset, length);
                    spent[0] += cpuNanos() - t;
                }
            });
        } finally {
            member.close();
        }
        long t1 = cpuNanos();
        session.finish();
        spent[0] += cpuNanos() - t1;
        return spent[0] / 1e6;
    }

    private static void measureSmallFiles(LayerOfSystemFiles layer, BenchmarkReport report) throws IOException {
        LayerSplitter identifying = new LayerSplitter(StandardEncoders.identifier());
        double megabytes = layer.tar().length / 1e6;
        String knownDigest = layer.sha256();
        double[] split = new double[ROUNDS];
        double[] ceiling = new double[ROUNDS];
        SplitResult result = null;
        for (int round = -WARMUP; round < ROUNDS; round++) {
            long t0 = cpuNanos();
            result = identifying.split(new ByteArrayInputStream(layer.gzip()), knownDigest, FileSink.discarding());
            long t1 = cpuNanos();
            inflateOnly(layer.gzip());
            sha256(layer.tar());
            long t2 = cpuNanos();
            if (round >= 0) {
                split[round] = megabytes / ((t1 - t0) / 1e9);
                ceiling[round] = megabytes / ((t2 - t1) / 1e9);
            }
        }
        report.compare(SUITE, String.format("split %.0f MB of small files, digest known", megabytes), "MB/cpu-s", split, ceiling,
                "inflate+sha256 tar", true);
        report.value(SUITE, "small files: recipe / compressed layer", "%",
                new double[] {100.0 * result.recipe().toBytes().length / layer.gzip().length});
    }

    /** Splits {@code blob} with its bodies kept in memory, then rebuilds it: MB of tar per CPU second, three rounds after one. */
    /** Rebuilds per CPU second of this thread, timed after {@code warmUpRounds} untimed ones. */
    static double[] rebuildThroughput(LayerSplitter splitter, byte[] blob, double megabytes, int warmUpRounds) throws IOException {
        Map<FileRef, byte[]> bodies = new HashMap<>();
        FileSink keep = declaredSize -> new FileSink.Body() {
            private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

            @Override
            public void write(byte[] data, int offset, int length) {
                bytes.write(data, offset, length);
            }

            @Override
            public void complete(FileRef ref) {
                bodies.put(ref, bytes.toByteArray());
            }

            @Override
            public void abort() {
            }
        };
        SplitResult split = splitter.split(new ByteArrayInputStream(blob), keep);
        FileContentSource source = ref -> new ByteArrayInputStream(bodies.get(ref));
        LayerRebuilder rebuilder = new LayerRebuilder(StandardEncoders.factory());
        double[] rebuild = new double[3];
        for (int round = -warmUpRounds; round < rebuild.length; round++) {
            long t0 = cpuNanos();
            rebuilder.rebuild(split.recipe(), source, OutputStream.nullOutputStream());
            if (round >= 0) {
                rebuild[round] = megabytes / ((cpuNanos() - t0) / 1e9);
            }
        }
        return rebuild;
    }

    /**
     * This thread's CPU time: everything measured runs on the calling thread, so bytes per CPU
     * second is the per-core throughput, whatever the neighbours on a shared machine are doing.
     */
    private static long cpuNanos() {
        return THREADS.getCurrentThreadCpuTime();
    }

    /** Inflates the layer's one deflate stream into a 64 KiB buffer, nothing else. */
    private static void inflateOnly(byte[] gzip) throws IOException {
        Inflater inflater = new Inflater(true);
        try {
            inflater.setInput(gzip, GZIP_HEADER, gzip.length - GZIP_HEADER);
            byte[] out = new byte[64 * 1024];
            while (!inflater.finished()) {
                inflater.inflate(out);
            }
        } catch (DataFormatException e) {
            throw new IOException("the benchmark's own layer does not inflate", e);
        } finally {
            inflater.end();
        }
    }

    private static void sha256(byte[] data) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            for (int offset = 0; offset < data.length; offset += 64 * 1024) {
                digest.update(data, offset, Math.min(64 * 1024, data.length - offset));
            }
            digest.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    /** The floor: decompress and read every tar body, nothing kept, nothing hashed. */
    private static void readWithJavaUtilZip(byte[] gzip) throws IOException {
        byte[] buffer = new byte[64 * 1024];
        try (InputStream gunzip = new GZIPInputStream(new ByteArrayInputStream(gzip), 64 * 1024);
             TarArchiveInputStream tar = new TarArchiveInputStream(gunzip)) {
            while (tar.getNextEntry() != null) {
                while (tar.read(buffer) >= 0) {
                    // every body byte is read, as a split must
                }
            }
        }
    }
}
