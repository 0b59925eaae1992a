package dev.layerfold.dedup.codec.deflate.zlib;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

/** Inputs for the encoder tests: random, repetitive, text, binaries and a real tar of system files. */
public final class ReferenceInputs {

    private static final String[] WORDS = {
        "layer", "registry", "manifest", "the", "of", "and", "digest", "sha256", "blob", "usr", "lib", "bin",
        "etc", "config", "tar", "gzip", "deflate", "window", "match", "-", "_", ".", "/", "\n", "{", "}", "\"",
    };

    private static byte[] systemTar;
    private static byte[][] layerPools;

    private ReferenceInputs() {
    }

    /** Named inputs from 0 bytes to a few hundred KiB, covering each kind of data. */
    public static List<Named> small() {
        return List.of(
                new Named("empty", new byte[0]),
                new Named("one byte", new byte[] {42}),
                new Named("three bytes", new byte[] {1, 2, 3}),
                new Named("random 50 KiB", random(1, 50_000)),
                new Named("repetitive 100 KiB", repetitive(100_000)),
                new Named("text 150 KiB", text(2, 150_000)),
                new Named("binary 128 KiB", binary(128 * 1024)),
                new Named("tar of system files", systemTar()));
    }

    public record Named(String name, byte[] data) {
        @Override
        public String toString() {
            return name + " (" + data.length + " bytes)";
        }
    }

    public static byte[] random(long seed, int size) {
        byte[] data = new byte[size];
        new SplittableRandom(seed).nextBytes(data);
        return data;
    }

    /** Long runs and short periods: the cases where matches reach 258 bytes and RLE applies. */
    public static byte[] repetitive(int size) {
        byte[] data = new byte[size];
        for (int i = 0; i < size; i++) {
            int section = i / 10_000;
            data[i] = (byte) (section % 3 == 0 ? 'a' : section % 3 == 1 ? "abcabd".charAt(i % 6) : (i / 300) & 0xff);
        }
        return data;
    }

    /** Word salad: many short and medium matches at all distances. */
    public static byte[] text(long seed, int size) {
        SplittableRandom random = new SplittableRandom(seed);
        StringBuilder text = new StringBuilder(size + 16);
        while (text.length() < size) {
            text.append(WORDS[random.nextInt(WORDS.length)]);
            if (random.nextInt(4) == 0) {
                text.append(random.nextInt(100_000));
            }
            text.append(' ');
        }
        return Arrays.copyOf(text.toString().getBytes(StandardCharsets.US_ASCII), size);
    }

    /** The start of this JVM's own libjvm (or java binary): real machine code and tables. */
    public static byte[] binary(int size) {
        Path home = Path.of(System.getProperty("java.home"));
        Path libjvm = home.resolve("lib/server/libjvm.so");
        Path file = Files.isRegularFile(libjvm) ? libjvm : home.resolve("bin/java");
        try (var in = Files.newInputStream(file)) {
            return in.readNBytes(size);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A tar of this JDK's conf and legal directories: real small text files with tar headers. */
    public static synchronized byte[] systemTar() {
        if (systemTar == null) {
            Path home = Path.of(System.getProperty("java.home"));
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (TarArchiveOutputStream tar = new TarArchiveOutputStream(bytes)) {
                tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
                for (Path file : files(home.resolve("conf"), home.resolve("legal"), home.resolve("lib/security"))) {
                    TarArchiveEntry entry = new TarArchiveEntry(file.toFile(), home.relativize(file).toString());
                    tar.putArchiveEntry(entry);
                    if (Files.isRegularFile(file)) {
                        Files.copy(file, tar);
                    }
                    tar.closeArchiveEntry();
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            systemTar = bytes.toByteArray();
        }
        return systemTar;
    }

    private static List<Path> files(Path... roots) throws IOException {
        List<Path> files = new ArrayList<>();
        for (Path root : roots) {
            if (Files.isDirectory(root)) {
                try (Stream<Path> walk = Files.walk(root)) {
                    walk.filter(p -> Files.isRegularFile(p) && !Files.isSymbolicLink(p))
                            .sorted(Comparator.naturalOrder()).forEach(files::add);
                }
            }
        }
        return files;
    }

    /**
     * {@code size} bytes of layer-like data, made chunk by chunk from a seed (never held whole): slices
     * of text, binary and random material, as a layer strings files of each kind together.
     */
    public static void layerLike(long seed, long size, ChunkConsumer consumer) throws IOException {
        byte[][] pools = layerPools();
        SplittableRandom random = new SplittableRandom(seed);
        long produced = 0;
        while (produced < size) {
            byte[] pool = pools[random.nextInt(pools.length)];
            int length = (int) Math.min(Math.min(size - produced, pool.length), 16 * 1024 + random.nextInt(512 * 1024));
            int from = random.nextInt(pool.length - length + 1);
            consumer.accept(Arrays.copyOfRange(pool, from, from + length), length);
            produced += length;
        }
    }

    private static synchronized byte[][] layerPools() {
        if (layerPools == null) {
            layerPools = new byte[][] {text(11, 2 << 20), binary(2 << 20), random(12, 2 << 20)};
        }
        return layerPools;
    }

    @FunctionalInterface
    public interface ChunkConsumer {
        void accept(byte[] chunk, int length) throws IOException;
    }
}
