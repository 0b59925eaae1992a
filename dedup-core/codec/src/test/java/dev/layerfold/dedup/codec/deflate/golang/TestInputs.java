package dev.layerfold.dedup.codec.deflate.golang;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Random;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Tuple;

/** Inputs of the kinds layers hold: random (already compressed), repetitive, text, binaries, tars. */
public final class TestInputs {

    private static Path docs;

    private TestInputs() {
    }

    /**
     * A copy of this machine's {@code /usr/share/doc} (named {@code doc}, so that its tar names match)
     * holding only the machine image's own packages ({@code image-doc-packages.txt}): a package that
     * .ci/run or a developer installs would change which files the first megabytes of a tar of it hold,
     * and with them what a test of an encoder sees. Made once per test JVM; {@code /usr/include} where
     * the machine has no documentation.
     */
    public static synchronized Path docs() {
        Path system = Path.of("/usr/share/doc");
        if (!Files.isDirectory(system)) {
            return Path.of("/usr/include");
        }
        if (docs == null) {
            try (InputStream list = TestInputs.class.getResourceAsStream("/image-doc-packages.txt")) {
                Path copy = Files.createTempDirectory("layerfold-docs-").resolve("doc");
                Files.createDirectories(copy);
                for (String line : new String(list.readAllBytes(), StandardCharsets.UTF_8).lines().toList()) {
                    Path source = system.resolve(line.strip());
                    if (!line.isBlank() && !line.startsWith("#") && Files.exists(source, LinkOption.NOFOLLOW_LINKS)) {
                        copyTree(source, copy.resolve(source.getFileName().toString()));
                    }
                }
                docs = copy;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return docs;
    }

    /** Copies files, directories and symbolic links as they are, with their times and modes. */
    private static void copyTree(Path source, Path target) throws IOException {
        try (Stream<Path> paths = Files.walk(source)) {
            for (Path path : paths.toList()) {
                Path to = target.resolve(source.relativize(path).toString());
                if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(path, to, LinkOption.NOFOLLOW_LINKS, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
        try (Stream<Path> paths = Files.walk(source)) {
            for (Path dir : paths.filter(path -> Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)).toList()) {
                Files.setLastModifiedTime(target.resolve(source.relativize(dir).toString()), Files.getLastModifiedTime(dir));
            }
        }
    }

    /** For property tests: uniform bytes, low-entropy bytes, runs and repeats: everything from stored to long matches. */
    public static Arbitrary<byte[]> arbitrary() {
        Arbitrary<byte[]> uniform = Arbitraries.bytes().array(byte[].class).ofMaxSize(70_000);
        Arbitrary<byte[]> smallAlphabet = Arbitraries.bytes().between((byte) 0, (byte) 3)
                .array(byte[].class).ofMaxSize(140_000);
        Arbitrary<byte[]> repeats = Arbitraries.integers().between(0, 300_000)
                .flatMap(size -> Arbitraries.longs().map(seed -> repetitive(size, seed)));
        Arbitrary<byte[]> tiny = Arbitraries.bytes().array(byte[].class).ofMaxSize(300);
        return Arbitraries.frequencyOf(Tuple.of(3, uniform), Tuple.of(3, smallAlphabet), Tuple.of(3, repeats), Tuple.of(2, tiny));
    }

    public static byte[] random(int size, long seed) {
        byte[] data = new byte[size];
        new Random(seed).nextBytes(data);
        return data;
    }

    /** Long runs, short repeated phrases and repeats at every distance class, rarely broken. */
    public static byte[] repetitive(int size, long seed) {
        Random random = new Random(seed);
        byte[] data = new byte[size];
        int i = 0;
        while (i < size) {
            int run = Math.min(size - i, 1 + random.nextInt(2000));
            switch (random.nextInt(4)) {
                case 0 -> java.util.Arrays.fill(data, i, i + run, (byte) random.nextInt(4));
                case 1 -> {
                    byte[] phrase = "layer/".repeat(1 + random.nextInt(3)).getBytes(StandardCharsets.US_ASCII);
                    for (int j = 0; j < run; j++) {
                        data[i + j] = phrase[j % phrase.length];
                    }
                }
                case 2 -> {
                    // A copy from somewhere earlier, far or near.
                    int distance = 1 + random.nextInt(Math.max(1, Math.min(i, 40_000)));
                    for (int j = 0; j < run; j++) {
                        data[i + j] = i >= distance ? data[i + j - distance] : (byte) j;
                    }
                }
                default -> {
                    for (int j = 0; j < run; j++) {
                        data[i + j] = (byte) ('a' + random.nextInt(3));
                    }
                }
            }
            i += run;
        }
        return data;
    }

    /** The Go sources of a package tree: real text, up to {@code limit} bytes. */
    public static byte[] text(Path goRoot, int limit) {
        try (Stream<Path> files = Files.walk(goRoot.resolve("src/compress"))) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            for (Path file : files.filter(f -> f.toString().endsWith(".go")).sorted().toList()) {
                if (out.size() >= limit) {
                    break;
                }
                out.write(Files.readAllBytes(file));
            }
            return java.util.Arrays.copyOf(out.toByteArray(), Math.min(limit, out.size()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The first {@code limit} bytes of a file. */
    public static byte[] head(Path file, int limit) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return in.readNBytes(limit);
        }
    }

    /** The first {@code limit} bytes of a tar of {@code directory}, as written by the system's tar. */
    public static byte[] tarOf(Path directory, int limit) {
        try {
            Process tar = startTar(directory);
            try (InputStream in = tar.getInputStream()) {
                return in.readNBytes(limit);
            } finally {
                tar.destroy();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** An endless stream of tars of {@code directory}, one after the other. */
    public static InputStream repeatedTar(Path directory) {
        return new InputStream() {
            private Process tar;
            private InputStream current = InputStream.nullInputStream();

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                while (true) {
                    int n = current.read(b, off, len);
                    if (n != 0 && n != -1 || len == 0) {
                        return n;
                    }
                    close();
                    tar = startTar(directory);
                    current = tar.getInputStream();
                }
            }

            @Override
            public void close() throws IOException {
                current.close();
                if (tar != null) {
                    tar.destroy();
                }
            }
        };
    }

    /** Starts the system's tar writing a tar of {@code directory} (sorted by name) to its stdout. */
    public static Process startTar(Path directory) throws IOException {
        return new ProcessBuilder("tar", "--sort=name", "-cf", "-", "-C", directory.getParent().toString(),
                directory.getFileName().toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    }
}
