package dev.layerfold.benchmark.dedup;

import dev.layerfold.benchmark.BenchmarkReport;
import dev.layerfold.benchmark.codec.LayerOfSystemFiles;
import dev.layerfold.dedup.codec.io.FileSink;
import dev.layerfold.dedup.codec.LayerSplitter;
import dev.layerfold.dedup.codec.SplitResult;
import dev.layerfold.dedup.codec.deflate.DeflateEncoder;
import dev.layerfold.dedup.codec.identify.StandardEncoders;
import dev.layerfold.dedup.codec.recipe.GzipMember;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * Part 1: how fast the dedup worker deduplicates a layer, in MB of uncompressed tar per CPU second of
 * its thread, against its ceiling measured in the same rounds: the codec's split of the layer (which
 * identifies the encoder on its first blocks only) plus one pass of the layer's encoder over the
 * tar, the least any worker that proves its rebuild must do. Each round deduplicates the layer into
 * a fresh embedded backend, so every file is new and compressed into packs, as for the first image
 * of a distribution. Beside it, the share of the worker's CPU its proof takes (the layer rebuilt from
 * what was stored, measured again on its own after each round), and a second ceiling that adds what
 * storing the files costs at least: compressing each distinct file once (zstd level 3, one frame each),
 * which the ceiling leaves out. Then the common case in a registry, where nearly every file is
 * stored already: the same files rebuilt into another layer (other times, so another blob), deduplicated
 * into the backend that holds the first; against the same ceiling, since its tar costs the same to split
 * and encode. Last, what a cheaper zstd level would cost and store: the same files at levels 1 and 2,
 * CPU and bytes against level 3's.
 */
record DedupThroughput(Path work, LayerMaker maker, long layerSize, int warmup, int rounds) {

    private static final String SUITE = "dedup";
    private static final int PIECE = 64 * 1024;
    private static final int[] CHEAPER_ZSTD_LEVELS = {1, 2};

    void run(BenchmarkReport report) throws Exception {
        List<Path> files = LayerOfSystemFiles.systemFiles(layerSize, 32L << 20);
        for (Producer producer : Producer.values()) {
            if (!maker.canMake(producer) || producer.restartOnly()) {
                continue;
            }
            ProducedLayer layer = maker.make(producer.label, files, Instant.parse("2026-01-01T00:00:00Z"), producer);
            ProducedLayer rebuilt = maker.make(producer.label + "-rebuilt", files, Instant.parse("2026-02-01T00:00:00Z"), producer);
            System.out.println("dedup throughput, " + layer);
            measure(layer, rebuilt, report);
        }
    }

    private void measure(ProducedLayer layer, ProducedLayer rebuilt, BenchmarkReport report) throws IOException {
        LayerSplitter splitter = new LayerSplitter(StandardEncoders.identifier());
        double megabytes = layer.tarMegabytes();
        double[] dedup = new double[rounds];
        double[] dedupStored = new double[rounds];
        double[] ceiling = new double[rounds];
        double[] split = new double[rounds];
        double[] encode = new double[rounds];
        double[] proofShare = new double[rounds];
        double[] zstd = new double[rounds];
        double[] ceilingWithZstd = new double[rounds];
        double[][] cheaperZstd = new double[CHEAPER_ZSTD_LEVELS.length][rounds];
        double[][] cheaperZstdBytes = new double[CHEAPER_ZSTD_LEVELS.length][rounds];
        List<byte[]> files = IdealStorage.distinctFiles(layer);
        for (int round = -warmup; round < rounds; round++) {
            long dedupNanos;
            long proofNanos;
            long dedupStoredNanos;
            try (EmbeddedDedup backend = EmbeddedDedup.create(work)) {
                backend.push(layer);
                long start = CpuClock.nanos();
                backend.deduplicate(layer);
                dedupNanos = CpuClock.nanos() - start;
                start = CpuClock.nanos();
                backend.rebuildFromStore(layer.digest());
                proofNanos = CpuClock.nanos() - start;
                backend.push(rebuilt);
                start = CpuClock.nanos();
                backend.deduplicate(rebuilt);
                dedupStoredNanos = CpuClock.nanos() - start;
            }
            long t0 = CpuClock.nanos();
            SplitResult result = splitter.split(new ByteArrayInputStream(layer.blob()), layer.digest().hex(), FileSink.discarding());
            long t1 = CpuClock.nanos();
            encodeAlone(result.recipe().members(), layer.tar());
            long t2 = CpuClock.nanos();
            long level3Bytes = zstdBytes(files, IdealStorage.ZSTD_LEVEL);
            long t3 = CpuClock.nanos();
            for (int i = 0; i < CHEAPER_ZSTD_LEVELS.length && round >= 0; i++) {
                long start = CpuClock.nanos();
                long bytes = zstdBytes(files, CHEAPER_ZSTD_LEVELS[i]);
                cheaperZstd[i][round] = megabytes / ((CpuClock.nanos() - start) / 1e9);
                cheaperZstdBytes[i][round] = (double) bytes / level3Bytes;
            }
            if (round >= 0) {
                dedup[round] = megabytes / (dedupNanos / 1e9);
                dedupStored[round] = megabytes / (dedupStoredNanos / 1e9);
                split[round] = megabytes / ((t1 - t0) / 1e9);
                encode[round] = megabytes / ((t2 - t1) / 1e9);
                ceiling[round] = megabytes / ((t2 - t0) / 1e9);
                proofShare[round] = 100.0 * proofNanos / dedupNanos;
                zstd[round] = megabytes / ((t3 - t2) / 1e9);
                ceilingWithZstd[round] = megabytes / ((t3 - t0) / 1e9);
            }
        }
        String name = String.format("%s %.0f MB", layer.producer().label, megabytes);
        report.value(SUITE, name + ": split alone", "MB/cpu-s", split);
        report.value(SUITE, name + ": encoder alone", "MB/cpu-s", encode);
        report.compare(SUITE, name + ": dedup vs ceiling", "MB/cpu-s", dedup, ceiling, "split+encoder", true);
        report.value(SUITE, name + ": proof rebuild, share of dedup", "%", proofShare);
        report.value(SUITE, name + ": zstd -3 of its files alone", "MB/cpu-s", zstd);
        report.compare(SUITE, name + ": dedup vs ceiling with zstd", "MB/cpu-s", dedup, ceilingWithZstd, "split+enc+zstd", true);
        report.compare(SUITE, name + ": files stored, dedup vs ceiling", "MB/cpu-s", dedupStored, ceiling, "split+encoder", true);
        for (int i = 0; i < CHEAPER_ZSTD_LEVELS.length; i++) {
            int level = CHEAPER_ZSTD_LEVELS[i];
            report.compare(SUITE, name + ": zstd -" + level + " of its files vs -3", "MB/cpu-s", cheaperZstd[i], zstd, "zstd -3", true);
            report.value(SUITE, name + ": zstd -" + level + " of its files, bytes vs -3's", "x", cheaperZstdBytes[i]);
        }
    }

    private static long zstdBytes(List<byte[]> files, int level) {
        long bytes = 0;
        for (byte[] file : files) {
            bytes += IdealStorage.zstdFrame(file, level);
        }
        return bytes;
    }

    /** Each gzip member's share of the tar through the encoder the split identified for it, output discarded. */
    static void encodeAlone(List<GzipMember> members, byte[] tar) throws IOException {
        int offset = 0;
        for (GzipMember member : members) {
            DeflateEncoder encoder = StandardEncoders.factory().create(member.encoder(), OutputStream.nullOutputStream());
            int end = Math.toIntExact(offset + member.uncompressedSize());
            for (; offset < end; offset += Math.min(PIECE, end - offset)) {
                encoder.write(tar, offset, Math.min(PIECE, end - offset));
            }
            encoder.finish();
        }
    }
}
