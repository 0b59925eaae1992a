package dev.layerfold.benchmark.codec;

import dev.layerfold.dedup.codec.deflate.DeflateEncoder;
import dev.layerfold.dedup.codec.deflate.golang.GoFlateEncoder;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import java.util.zip.CRC32;

/**
 * A docker-like layer of this machine's system files: GNU tar (GNU format, which like Go's
 * archive/tar writes no per-file access and change times) of files from
 * {@code /usr/lib}, {@code /usr/bin} and {@code /usr/share} up to a size, each file at most a size, gzip'd by the Go-compatible
 * encoder at level 6 with Go's gzip header (what docker push writes).
 */
public record LayerOfSystemFiles(byte[] tar, byte[] gzip) {

    /** The gzip layer's sha256, as a registry knows it once the layer was pushed. */
    String sha256() {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(gzip));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    /** Builds the layer in {@code work}, which must not hold another layer being built. */
    static LayerOfSystemFiles build(Path work, long size, long maxFileSize) throws IOException, InterruptedException {
        List<String> files = systemFiles(size, maxFileSize).stream().map(Path::toString).toList();
        Path list = work.resolve("files.txt");
        Files.writeString(list, String.join("\0", files), StandardCharsets.UTF_8);
        Path tarFile = work.resolve("layer.tar");
        Process tar = new ProcessBuilder("tar", "--format=gnu", "--null", "-T", list.toString(), "-cf", tarFile.toString())
                .redirectErrorStream(true).start();
        String output = new String(tar.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (tar.waitFor() != 0) {
            throw new IOException("tar failed: " + output);
        }
        byte[] tarBytes = Files.readAllBytes(tarFile);
        return new LayerOfSystemFiles(tarBytes, gzipLikeGo(tarBytes, out -> GoFlateEncoder.create(out, 6)));
    }

    /**
     * Regular files of {@code /usr/lib}, {@code /usr/bin} and {@code /usr/share}, in that order and sorted
     * within each, of at most {@code maxFileSize} bytes each and {@code size} bytes together.
     */
    public static List<Path> systemFiles(long size, long maxFileSize) throws IOException {
        List<Path> files = new ArrayList<>();
        long total = 0;
        for (String root : List.of("/usr/lib/x86_64-linux-gnu", "/usr/bin", "/usr/share")) {
            try (Stream<Path> walk = Files.walk(Path.of(root))) {
                for (Path file : (Iterable<Path>) walk.filter(file -> Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)).sorted()::iterator) {
                    long length = Files.size(file);
                    if (length > maxFileSize || total + length > size) {
                        continue;
                    }
                    files.add(file);
                    total += length;
                }
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
        }
        return files;
    }

    /** The same tar in a gzip member with Go's header, compressed by {@code encoder} (pgzip writes Go's header too). */
    byte[] gzipWith(Function<OutputStream, DeflateEncoder> encoder) throws IOException {
        return gzipLikeGo(tar, encoder);
    }

    private static byte[] gzipLikeGo(byte[] data, Function<OutputStream, DeflateEncoder> encoderOf) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(data.length / 2);
        out.write(new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 0xff});
        DeflateEncoder encoder = encoderOf.apply(out);
        encoder.write(data, 0, data.length);
        encoder.finish();
        CRC32 crc = new CRC32();
        crc.update(data);
        for (long value : new long[] {crc.getValue(), data.length}) {
            for (int i = 0; i < 4; i++) {
                out.write((int) (value >>> (8 * i)));
            }
        }
        return out.toByteArray();
    }
}
