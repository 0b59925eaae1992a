package dev.layerfold.dedup.codec.deflate.klauspost;

import dev.layerfold.dedup.codec.deflate.zlib.ReferenceTools;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;

/**
 * klauspost/pgzip as built against one klauspost/compress release (src/test/pgzipref, built with
 * {@code go}, which fetches the modules through the module proxy): pgzip 1.3.0 over compress 1.20.3
 * ({@code go.mod}), and, each in its own {@code compress-VERSION.mod}, pgzip 1.2.6 over compress 1.19.2,
 * 1.18.0 and 1.17.11, pgzip 1.2.5 over compress 1.15.12 (Debian 12's skopeo), 1.15.10, 1.15.9
 * (podman 4.2, skopeo 1.9) and 1.14.4; and pgzip 1.2.6 over compress 1.18.1, which writes no bytes of its own
 * ({@link #ofCompress}). pgzip 1.2.5, 1.2.6 and 1.3.0 frame blocks alike.
 */
public final class PgzipOracle {

    private static final Path SOURCES = ReferenceTools.sources("pgzipref");
    private static final Map<FlateRelease, String> MODFILES = Map.of(
            FlateRelease.COMPRESS_1_20_3, "go.mod",
            FlateRelease.COMPRESS_1_19_2, "compress-1.19.2.mod",
            FlateRelease.COMPRESS_1_18_0, "compress-1.18.0.mod",
            FlateRelease.COMPRESS_1_17_11, "compress-1.17.11.mod",
            FlateRelease.COMPRESS_1_15_12, "compress-1.15.12.mod",
            FlateRelease.COMPRESS_1_15_10, "compress-1.15.10.mod",
            FlateRelease.COMPRESS_1_15_9, "compress-1.15.9.mod",
            FlateRelease.COMPRESS_1_14_4, "compress-1.14.4.mod");
    /** By modfile. */
    private static final Map<String, PgzipOracle> BUILT = new HashMap<>();

    private final Path binary;

    private PgzipOracle(Path binary) {
        this.binary = binary;
    }

    /** The releases there is an oracle for. */
    public static List<FlateRelease> releases() {
        return List.of(FlateRelease.COMPRESS_1_20_3, FlateRelease.COMPRESS_1_19_2, FlateRelease.COMPRESS_1_18_0,
                FlateRelease.COMPRESS_1_17_11, FlateRelease.COMPRESS_1_15_12, FlateRelease.COMPRESS_1_15_10, FlateRelease.COMPRESS_1_15_9,
                FlateRelease.COMPRESS_1_14_4);
    }

    /** Builds once per release; aborts the test, loudly, where go cannot build it (fails under CI). */
    public static PgzipOracle of(FlateRelease release) {
        return ofModfile(MODFILES.get(release));
    }

    /** pgzip over klauspost/compress {@code version}, pinned by {@code compress-VERSION.mod}; built as {@link #of}. */
    public static PgzipOracle ofCompress(String version) {
        return ofModfile("compress-" + version + ".mod");
    }

    private static synchronized PgzipOracle ofModfile(String modfile) {
        return BUILT.computeIfAbsent(modfile, PgzipOracle::build);
    }

    private static PgzipOracle build(String modfile) {
        Path binary = Path.of("target", "go-reference", "pgzipref-" + modfile.replace(".mod", "")).toAbsolutePath();
        String whyNot;
        try {
            Files.createDirectories(binary.getParent());
            Process go = new ProcessBuilder("go", "build", "-modfile=" + modfile, "-o", binary.toString(), ".")
                    .directory(SOURCES.toFile()).redirectErrorStream(true).start();
            String output = new String(go.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (go.waitFor() == 0) {
                return new PgzipOracle(binary);
            }
            whyNot = output;
        } catch (IOException e) {
            whyNot = e.toString();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            throw new AssertionError("building pgzipref with " + modfile + " failed: " + whyNot);
        }
        Assumptions.abort("PGZIP ORACLE UNAVAILABLE, pgzip with " + modfile + " NOT VERIFIED: " + whyNot);
        throw new AssertionError("unreachable");
    }

    /** pgzip's member for {@code input} without its 10-byte header and 8-byte trailer. */
    byte[] deflate(int level, int blockSize, byte[] input) throws IOException {
        byte[] member = gzip(level, blockSize, input);
        return Arrays.copyOfRange(member, 10, member.length - 8);
    }

    /** pgzip's gzip member for {@code input}, as a layer of the tools built with it. */
    public byte[] gzip(int level, int blockSize, byte[] input) throws IOException {
        Process process = new ProcessBuilder(binary.toString(), Integer.toString(level), Integer.toString(blockSize))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        Thread feeder = Thread.ofPlatform().start(() -> {
            try (OutputStream in = process.getOutputStream()) {
                in.write(input);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        byte[] member = process.getInputStream().readAllBytes();
        try {
            feeder.join();
            if (process.waitFor() != 0) {
                throw new IOException("pgzipref exited with " + process.exitValue());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
        return member;
    }
}
