package dev.layerfold.benchmark.dedup;

import dev.layerfold.benchmark.GoPrograms;
import dev.layerfold.benchmark.WorkDirectory;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * Makes layers of this machine's system files the way real producers do: the files are copied into
 * a root file system with the modification time of a build (an image rebuilt later has the same
 * files under other times, so other tar headers and another blob), then archived and compressed by
 * the producer's own tool.
 */
public final class LayerMaker {

    /** The Go 1.27 release the codec's port is proven against. */
    private static final String GO_1_27 = "go1.27.3";

    private final Path work;
    private final Path layergen;
    private int builds;

    /** Built on first use: fetching Go 1.27 takes a while. */
    private Path layergenGo127;
    /** Built on first use, as the tests' oracles: stargz-snapshotter's estargz package, containers/storage's zstd:chunked compressor. */
    private Path estargzgen;
    private Path chunkedgen;
    private Path zstdgen;
    private Path pgzipref;

    private LayerMaker(Path work, Path layergen) {
        this.work = work;
        this.layergen = layergen;
    }

    /** A maker working in {@code work}; Go layers need Go ({@link #canMake}). */
    public static LayerMaker in(Path work) throws IOException, InterruptedException {
        Path layergen = GoPrograms.go().isPresent() ? GoPrograms.build("layergen", ".", work.resolve("layergen")) : null;
        if (layergen == null) {
            System.out.println("dedup: Go is not installed; layers of Go producers are left out");
        }
        return new LayerMaker(work, layergen);
    }

    /** layergen built with Go 1.27 (fetched through the module proxy), whose compress/flate differs from 1.26's. */
    private Path layergenGo127() throws IOException, InterruptedException {
        if (layergenGo127 == null) {
            layergenGo127 = GoPrograms.build("layergen", ".", work.resolve("layergen-go1.27"), GO_1_27);
        }
        return layergenGo127;
    }

    private Path estargzgen() throws IOException, InterruptedException {
        if (estargzgen == null) {
            estargzgen = GoPrograms.build("estargzgen", ".", work.resolve("estargzgen"));
        }
        return estargzgen;
    }

    /** src/test/pgzipref at its go.mod's klauspost/pgzip and compress: {@code pgzipref LEVEL BLOCKSIZE} gzips stdin. */
    private Path pgzipref() throws IOException, InterruptedException {
        if (pgzipref == null) {
            pgzipref = GoPrograms.build("pgzipref", ".", work.resolve("pgzipref"));
        }
        return pgzipref;
    }

    private Path chunkedgen() throws IOException, InterruptedException {
        if (chunkedgen == null) {
            chunkedgen = GoPrograms.build("chunkedgen", ".", work.resolve("chunkedgen"));
        }
        return chunkedgen;
    }

    /** src/test/zstdgen built against klauspost/compress 1.18.0: its {@code klauspost LEVEL} mode is the Writer, {@code libzstd LEVEL} libzstd 1.5.7. */
    private Path zstdgen() throws IOException, InterruptedException {
        if (zstdgen == null) {
            zstdgen = GoPrograms.build("zstdgen", ".", work.resolve("zstdgen-1.18.0"), "local", "-modfile=compress-1.18.0.mod");
        }
        return zstdgen;
    }

    /** The Go Writer's EncoderLevel (zstdgen's {@code klauspost LEVEL}) that containers/image picks for a producer's zstd level. */
    private static int klauspostSpeed(Producer producer) {
        return switch (producer) {
            case KLAUSPOST_ZSTD_1 -> 1;
            case KLAUSPOST_ZSTD_3 -> 2;
            case KLAUSPOST_ZSTD_5 -> 3;
            case KLAUSPOST_ZSTD_10 -> 4;
            default -> throw new IllegalArgumentException(producer + " is not klauspost's Writer");
        };
    }

    public boolean canMake(Producer producer) {
        return !producer.needsGo() || layergen != null;
    }

    /** A layer of {@code files} (absolute paths, kept as paths below the root) built at {@code builtAt}. */
    ProducedLayer make(String name, List<Path> files, Instant builtAt, Producer producer) throws IOException, InterruptedException {
        Map<String, Path> entries = new LinkedHashMap<>();
        for (Path file : files) {
            entries.put(file.getRoot().relativize(file).toString(), file);
        }
        return make(name, entries, builtAt, producer);
    }

    /**
     * A layer whose files are {@code entries}' values, each under its key (a path below the root, such as
     * {@code usr/lib/libz.so.1}), built at {@code builtAt}: for images whose files change between versions.
     */
    public ProducedLayer make(String name, Map<String, Path> entries, Instant builtAt, Producer producer) throws IOException, InterruptedException {
        Path build = Files.createDirectory(work.resolve("build-" + ++builds));
        try {
            Path root = stage(build.resolve("rootfs"), entries, FileTime.from(builtAt));
            Path blob = build.resolve("layer.tar.gz");
            switch (producer) {
                case GO_6, GO_1, GO_2, GO_0, GO_HUFFMAN_ONLY -> run(build, layergen.toString(), "-level", producer.label.substring("go-".length()), "-o",
                        blob.toString(), root.toString());
                case GO127_6, GO127_9, GO127_HUFFMAN_ONLY -> run(build, layergenGo127().toString(), "-level", producer.label.substring("go127-".length()), "-o",
                        blob.toString(), root.toString());
                case PIGZ_9, PIGZ_6 -> run(build, "sh", "-c", "tar --format=gnu --sort=name -C rootfs -cf - . | pigz -"
                        + (producer == Producer.PIGZ_9 ? 9 : 6) + " > layer.tar.gz");
                case GNU_GZIP_6, GNU_GZIP_1 -> run(build, "sh", "-c", "tar --format=gnu --sort=name -C rootfs -cf - . | gzip -n -"
                        + (producer == Producer.GNU_GZIP_6 ? 6 : 1) + " > layer.tar.gz");
                case PGZIP -> run(build, "sh", "-c", "tar --format=gnu --sort=name -C rootfs -cf - . | " + pgzipref()
                        + " -1 1048576 > layer.tar.gz");
                case PYTHON_ZLIB_1 -> run(build, "sh", "-c", "tar --format=gnu --sort=name -C rootfs -cf - . | python3 -c "
                        + "'import gzip, sys; sys.stdout.buffer.write(gzip.compress(sys.stdin.buffer.read(), 1, mtime=0))' > layer.tar.gz");
                case ESTARGZ -> run(build, "sh", "-c", "tar --format=gnu --sort=name -C rootfs -cf layer.tar . && " + estargzgen()
                        + " -level 9 -o layer.tar.gz layer.tar");
                case ZSTD_CHUNKED -> {
                    run(build, "sh", "-c", "tar --format=gnu --sort=name -C rootfs -cf layer.tar . && " + chunkedgen() + " 3 < layer.tar > layer.tar.gz");
                    // zstd:chunked's frames hold the tar as it was given.
                    return new ProducedLayer(name, producer, Files.readAllBytes(blob), Files.readAllBytes(build.resolve("layer.tar")));
                }
                case KLAUSPOST_ZSTD_3, KLAUSPOST_ZSTD_1, KLAUSPOST_ZSTD_5, KLAUSPOST_ZSTD_10 -> run(build, "sh", "-c", "tar --format=gnu --sort=name -C rootfs -cf layer.tar . && "
                        + zstdgen() + " klauspost " + klauspostSpeed(producer) + " < layer.tar > layer.tar.gz");
                case LIBZSTD_3, LIBZSTD_19 -> run(build, "sh", "-c", "tar --format=gnu --sort=name -C rootfs -cf layer.tar . && "
                        + zstdgen() + " libzstd " + producer.label.substring("libzstd-".length()) + " -size -workers 1 < layer.tar > layer.tar.gz");
                case JDK_ZLIB_6 -> {
                    Process tar = new ProcessBuilder("tar", "--format=gnu", "--sort=name", "-C", root.toString(), "-cf", "-", ".")
                            .redirectError(ProcessBuilder.Redirect.INHERIT).start();
                    try (InputStream in = tar.getInputStream(); var out = new GZIPOutputStream(Files.newOutputStream(blob), 64 * 1024)) {
                        in.transferTo(out);
                    }
                    if (tar.waitFor() != 0) {
                        throw new IOException("tar of " + root + " failed");
                    }
                }
            }
            if (producer.zstd()) {
                return new ProducedLayer(name, producer, Files.readAllBytes(blob), Files.readAllBytes(build.resolve("layer.tar")));
            }
            byte[] gzip = Files.readAllBytes(blob);
            return new ProducedLayer(name, producer, gzip, gunzip(gzip));
        } finally {
            WorkDirectory.deleteRecursively(build);
        }
    }

    private static Path stage(Path root, Map<String, Path> entries, FileTime builtAt) throws IOException {
        for (Map.Entry<String, Path> entry : entries.entrySet()) {
            Path copy = root.resolve(entry.getKey());
            Files.createDirectories(copy.getParent());
            Files.copy(entry.getValue(), copy);
            Files.setLastModifiedTime(copy, builtAt);
        }
        return root;
    }

    private static byte[] gunzip(byte[] gzip) throws IOException {
        ByteArrayOutputStream tar = new ByteArrayOutputStream(gzip.length * 3);
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gzip), 64 * 1024)) {
            in.transferTo(tar);
        }
        return tar.toByteArray();
    }

    private static void run(Path dir, String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + output);
        }
    }
}
