package dev.layerfold.e2e.dedup;

import dev.layerfold.e2e.blob.Sha256;
import dev.layerfold.e2e.client.CommandLine;
import dev.layerfold.e2e.oci.Descriptor;
import dev.layerfold.e2e.oci.ImageWriter;
import dev.layerfold.e2e.oci.MediaTypes;
import dev.layerfold.e2e.oci.OciLayout;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

/**
 * A tool that turns a root file system into a layer blob, each the way a real producer does, and
 * what the dedup pipeline is expected to make of its layers: deduplicated, or intact for a reason
 * its admin endpoint counts.
 */
enum Producer {

    /** docker push, buildkit, containerd: Go's archive/tar into compress/gzip at level 6. */
    GO_GZIP_6(MediaTypes.LAYER_TAR_GZIP, Optional.empty()),
    /** crane, ko, kaniko: the same at level 1. */
    GO_GZIP_1(MediaTypes.LAYER_TAR_GZIP, Optional.empty()),
    /** Jib and other Java tools: a tar through the JDK's GZIPOutputStream (zlib level 6). */
    JDK_GZIP(MediaTypes.LAYER_TAR_GZIP, Optional.empty()),
    /** Debian's official images (debuerreotype): GNU tar compressed by {@code pigz -9}. */
    PIGZ_9(MediaTypes.LAYER_TAR_GZIP, Optional.empty()),
    /** GNU tar and GNU gzip, as scripts and older tools write layers. */
    GNU_GZIP(MediaTypes.LAYER_TAR_GZIP, Optional.empty()),
    /** GNU gzip {@code --rsyncable}: its block resets are not reproduced, so such layers stay intact. */
    GNU_GZIP_RSYNCABLE(MediaTypes.LAYER_TAR_GZIP, Optional.of("not reproducible")),
    /**
     * GNU tar and the zstd CLI: deduplicated where the CLI is libzstd 1.5.7's (the release the codec
     * reproduces); any other release (Debian 12 has 1.5.4) writes other bytes, and its layers stay intact.
     */
    ZSTD(MediaTypes.LAYER_TAR_ZSTD, Optional.of("zstd not reproducible")),
    /** An uncompressed tar, as some build tools push it. */
    TAR(MediaTypes.LAYER_TAR, Optional.empty());

    private static final Duration TOOL_TIMEOUT = Duration.ofMinutes(2);
    /** Where the pom says the Go layer generator's source is (dedup-core's test tool). */
    private static final String LAYERGEN_PROPERTY = "layerfold.layergen.dir";
    private static Path layergen;

    private final String mediaType;
    private final Optional<String> intactReason;

    Producer(String mediaType, Optional<String> intactReason) {
        this.mediaType = mediaType;
        this.intactReason = intactReason;
    }

    /** Why the pipeline keeps this producer's layers intact; empty if it deduplicates them. */
    Optional<String> intactReason() {
        return this == ZSTD && zstdCliIsReproduced() ? Optional.empty() : intactReason;
    }

    private static Boolean zstdCliReproduced;

    private static synchronized boolean zstdCliIsReproduced() {
        if (zstdCliReproduced == null) {
            try {
                zstdCliReproduced = run(List.of("zstd", "--version")).stdoutText().contains("v1.5.7,");
            } catch (IOException e) {
                throw new java.io.UncheckedIOException("the zstd CLI does not run", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted asking the zstd CLI's version", e);
            }
        }
        return zstdCliReproduced;
    }

    /** Writes {@code tree} as a layer blob into {@code layout}, in {@code work} (a scratch directory). */
    ImageWriter.Layer write(Path tree, OciLayout layout, Path work) throws IOException, InterruptedException {
        Files.createDirectories(work);
        Path tar = work.resolve("layer.tar");
        Path blob = work.resolve("layer.blob");
        switch (this) {
            case GO_GZIP_6, GO_GZIP_1 -> {
                run(List.of(layergen().toString(), "-level", this == GO_GZIP_6 ? "6" : "1", "-o", blob.toString(),
                        tree.toString()));
                gunzip(blob, tar);
            }
            case JDK_GZIP -> {
                javaTar(tree, tar);
                try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(blob))) {
                    Files.copy(tar, out);
                }
            }
            case PIGZ_9, GNU_GZIP, GNU_GZIP_RSYNCABLE, ZSTD, TAR -> {
                run(List.of("tar", "--format=posix", "--sort=name", "--numeric-owner", "--owner=0", "--group=0",
                        "-C", tree.toString(), "-cf", tar.toString(), "."));
                List<String> compress = switch (this) {
                    case PIGZ_9 -> List.of("pigz", "-9", "-c", tar.toString());
                    case GNU_GZIP -> List.of("gzip", "-6", "-n", "-c", tar.toString());
                    case GNU_GZIP_RSYNCABLE -> List.of("gzip", "-6", "-n", "--rsyncable", "-c", tar.toString());
                    case ZSTD -> List.of("zstd", "-q", "-3", "-c", tar.toString());
                    default -> List.of("cat", tar.toString());
                };
                Files.write(blob, run(compress).stdout());
            }
        }
        String diffId;
        try (InputStream in = Files.newInputStream(tar)) {
            diffId = Sha256.of(in);
        }
        String digest;
        try (InputStream in = Files.newInputStream(blob)) {
            digest = Sha256.of(in);
        }
        Descriptor descriptor = layout.moveInBlob(mediaType, blob, digest);
        Files.delete(tar);
        return new ImageWriter.Layer(descriptor, diffId);
    }

    /** A tar of {@code tree} as commons-compress writes it (Jib writes its own tars the same way). */
    private static void javaTar(Path tree, Path tar) throws IOException {
        try (TarArchiveOutputStream out = new TarArchiveOutputStream(Files.newOutputStream(tar));
             Stream<Path> paths = Files.walk(tree)) {
            out.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            for (Path path : paths.filter(p -> !p.equals(tree)).sorted(Comparator.comparing(Path::toString)).toList()) {
                String name = tree.relativize(path).toString() + (Files.isDirectory(path) ? "/" : "");
                TarArchiveEntry entry = new TarArchiveEntry(path, name);
                out.putArchiveEntry(entry);
                if (Files.isRegularFile(path)) {
                    Files.copy(path, out);
                }
                out.closeArchiveEntry();
            }
        }
    }

    private static void gunzip(Path gzip, Path tar) throws IOException {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(gzip))) {
            Files.copy(in, tar);
        }
    }

    /** Builds dedup-core's Go layer generator once per test run. */
    private static synchronized Path layergen() throws IOException, InterruptedException {
        if (layergen == null) {
            String source = System.getProperty(LAYERGEN_PROPERTY);
            if (source == null) {
                throw new IllegalStateException("system property " + LAYERGEN_PROPERTY
                        + " must name dedup-core/codec/src/test/layergen (the e2e pom sets it)");
            }
            Path binary = Files.createTempDirectory("layergen-").resolve("layergen");
            run(List.of("sh", "-c", "cd '" + source + "' && go build -o '" + binary + "' ."));
            layergen = binary;
        }
        return layergen;
    }

    private static CommandLine.Result run(List<String> command) throws IOException, InterruptedException {
        return CommandLine.run(TOOL_TIMEOUT, command);
    }
}
