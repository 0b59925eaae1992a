package dev.layerfold.dedup.codec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The zstd producers the codec is checked against: src/test/zstdgen (libzstd 1.5.7's own C sources,
 * as DataDog/zstd bundles them, called as the zstd CLI calls them; and klauspost/compress/zstd's
 * Writer, as containers/image writes tar+zstd layers), src/test/chunkedgen (containers/storage's
 * zstd:chunked compressor), each built with Go once per run, and the machine's {@code zstd} CLI.
 * Without Go the tests are aborted (failed under CI).
 */
public final class ZstdOracle {

    private static Path zstdgen;
    /** The zstd:chunked compressor per containers/storage release: {@code chunkedgen}'s go.mod pins this one. */
    static final String CHUNKED_STORAGE = "1.59.1";
    private static final Map<String, Path> CHUNKEDGEN = new HashMap<>();

    private ZstdOracle() {
    }

    /** The C library's streaming compressor, set up as the zstd CLI sets it up, told to end the frame with its last input. */
    static byte[] libzstd(Path dir, byte[] tar, int level, int workers, boolean pledgedSize, boolean checksum) throws Exception {
        return libzstd(dir, tar, level, workers, pledgedSize, checksum, false);
    }

    /** As above; {@code endAfterInput}: told to end only after all its input, as the CLI reading a pipe is. */
    static byte[] libzstd(Path dir, byte[] tar, int level, int workers, boolean pledgedSize, boolean checksum, boolean endAfterInput)
            throws Exception {
        List<String> command = new ArrayList<>(List.of(zstdgen().toString(), "libzstd", Integer.toString(level), "-workers", Integer.toString(workers)));
        if (endAfterInput) {
            command.add("-endafter");
        }
        if (pledgedSize) {
            command.add("-size");
        }
        if (!checksum) {
            command.add("-nocheck");
        }
        return run(dir, tar, command);
    }

    /** klauspost/compress/zstd's streaming Writer at its EncoderLevel (1 fastest .. 4 best), as podman and buildah write zstd layers. */
    static byte[] klauspost(Path dir, byte[] tar, int level) throws Exception {
        return run(dir, tar, List.of(zstdgen().toString(), "klauspost", Integer.toString(level)));
    }

    /**
     * A zstd:chunked layer of {@code tar} as podman and buildah write one ({@code --compression-format
     * zstd:chunked}): containers/storage {@value #CHUNKED_STORAGE}'s compressor at zstd level {@code level}.
     */
    public static byte[] zstdChunked(Path dir, byte[] tar, int level) throws Exception {
        return zstdChunked(dir, tar, level, CHUNKED_STORAGE);
    }

    /**
     * As above, by another storage release: {@code 1.58.0} (containers/storage, built with
     * src/test/chunkedgen/storage-1.58.0.mod) or {@code podman-1.65.1} (go.podman.io/storage, with
     * storage-podman-1.65.1.mod and the podmanio tag); the .mod files there are the releases offered.
     */
    static byte[] zstdChunked(Path dir, byte[] tar, int level, String storage) throws Exception {
        return run(dir, tar, List.of(chunkedgen(storage).toString(), Integer.toString(level)));
    }

    /** The machine's zstd CLI, e.g. {@code -3 --no-check}, compressing a file (its size known) or stdin (not). */
    static byte[] cli(Path dir, byte[] tar, boolean fromFile, String... options) throws Exception {
        Path input = Files.write(dir.resolve("cli-input.tar"), tar);
        String command = "zstd -q -c " + String.join(" ", options) + (fromFile ? " " + input : " < " + input) + " > cli.zst";
        Tools.sh(dir, command);
        return Files.readAllBytes(dir.resolve("cli.zst"));
    }

    /** The machine's zstd CLI's version, e.g. 1.5.4. */
    static String cliVersion(Path dir) throws Exception {
        Tools.sh(dir, "zstd --version > zstd-version.txt");
        String banner = Files.readString(dir.resolve("zstd-version.txt"));
        return banner.replaceFirst("(?s).*v(\\d+\\.\\d+\\.\\d+).*", "$1");
    }

    private static byte[] run(Path dir, byte[] tar, List<String> command) throws Exception {
        Path input = Files.write(dir.resolve("oracle-input.tar"), tar);
        Path output = dir.resolve("oracle.zst");
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectInput(input.toFile()).redirectOutput(output.toFile())
                .redirectError(ProcessBuilder.Redirect.PIPE).start();
        byte[] errors = process.getErrorStream().readAllBytes();
        if (process.waitFor() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + new String(errors, StandardCharsets.UTF_8));
        }
        return Files.readAllBytes(output);
    }

    private static synchronized Path zstdgen() throws Exception {
        if (zstdgen == null) {
            zstdgen = Tools.goOracle("zstdgen", "zstd");
        }
        return zstdgen;
    }

    private static synchronized Path chunkedgen(String storage) throws Exception {
        Path binary = CHUNKEDGEN.get(storage);
        if (binary == null) {
            String unverified = "zstd:chunked layers of storage " + storage;
            binary = storage.equals(CHUNKED_STORAGE) ? Tools.goOracle("chunkedgen", unverified)
                    : Tools.goOracleVariant("chunkedgen", "storage-" + storage, storage.startsWith("podman-") ? "podmanio" : "", unverified);
            CHUNKEDGEN.put(storage, binary);
        }
        return binary;
    }
}
