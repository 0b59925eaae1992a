package dev.layerfold.benchmark.dedup;

import com.github.luben.zstd.Zstd;
import dev.layerfold.storage.Digest;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

/**
 * The least a file-level deduplicating store can keep of a data set, computed without the pipeline:
 * the layers are read with the JDK's gzip and commons-compress's tar reader, every distinct file
 * content is compressed once as one zstd frame at level 3 (zstd-jni), and every layer keeps its tar
 * headers (header blocks, long-name and PAX extension records: everything but the file bodies, their
 * zero padding and the end-of-archive blocks). A stricter ideal also compresses each layer's headers
 * (one zstd frame of all of them), as a recipe can.
 *
 * @param uniqueFiles      distinct file contents
 * @param fileReferences   file bodies in all layers
 * @param compressedUnique the distinct contents, each compressed alone
 * @param headerBytes      the tar headers of all layers
 * @param compressedHeaders each layer's headers as one zstd frame, for all layers
 */
public record IdealStorage(long uniqueFiles, long fileReferences, long compressedUnique, long headerBytes, long compressedHeaders) {

    private static final int BLOCK = 512;
    static final int ZSTD_LEVEL = 3;

    public long bytes() {
        return compressedUnique + headerBytes;
    }

    public long bytesWithCompressedHeaders() {
        return compressedUnique + compressedHeaders;
    }

    public static IdealStorage of(List<ProducedLayer> layers) throws IOException {
        Set<Digest> seen = new HashSet<>();
        long references = 0;
        long compressed = 0;
        long headers = 0;
        long compressedHeaders = 0;
        for (ProducedLayer layer : layers) {
            Counting counted = new Counting(new GZIPInputStream(new ByteArrayInputStream(layer.blob()), 64 * 1024));
            try (TarArchiveInputStream tar = new TarArchiveInputStream(counted)) {
                long endOfLastBody = 0;
                counted.capture = true;
                for (TarArchiveEntry entry = tar.getNextEntry(); entry != null; entry = tar.getNextEntry()) {
                    headers += counted.count - endOfLastBody;
                    counted.capture = false;
                    byte[] body = tar.readAllBytes();
                    counted.capture = true;
                    endOfLastBody = counted.count + padding(body.length);
                    if (!entry.isFile() || entry.isLink()) {
                        continue;
                    }
                    references++;
                    if (seen.add(Digest.sha256(body))) {
                        compressed += zstdFrame(body);
                    }
                }
            }
            compressedHeaders += Zstd.compress(counted.captured.toByteArray(), ZSTD_LEVEL).length;
            if (headers > layer.tar().length) {
                throw new IllegalStateException("counted more header bytes than " + layer + " holds: the tar reader reads ahead");
            }
        }
        return new IdealStorage(seen.size(), references, compressed, headers, compressedHeaders);
    }

    /** The distinct contents of a layer's regular files, in tar order. */
    static List<byte[]> distinctFiles(ProducedLayer layer) throws IOException {
        Set<Digest> seen = new HashSet<>();
        List<byte[]> files = new ArrayList<>();
        try (TarArchiveInputStream tar = new TarArchiveInputStream(new ByteArrayInputStream(layer.tar()))) {
            for (TarArchiveEntry entry = tar.getNextEntry(); entry != null; entry = tar.getNextEntry()) {
                byte[] body = tar.readAllBytes();
                if (entry.isFile() && !entry.isLink() && seen.add(Digest.sha256(body))) {
                    files.add(body);
                }
            }
        }
        return files;
    }

    /** One zstd frame of {@code content} at the level the pipeline stores files at: its size. */
    static int zstdFrame(byte[] content) {
        return zstdFrame(content, ZSTD_LEVEL);
    }

    /** One zstd frame of {@code content} at {@code level}: its size. */
    static int zstdFrame(byte[] content, int level) {
        return Zstd.compress(content, level).length;
    }

    private static long padding(long size) {
        return (BLOCK - size % BLOCK) % BLOCK;
    }

    /**
     * Counts the bytes the tar reader took, so the headers between two bodies can be told, and keeps
     * those read while {@link #capture} is on (the headers, and the zero padding the reader skips).
     */
    private static final class Counting extends FilterInputStream {
        final ByteArrayOutputStream captured = new ByteArrayOutputStream();
        long count;
        boolean capture;

        Counting(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) {
                count++;
                if (capture) {
                    captured.write(b);
                }
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = in.read(buffer, offset, length);
            if (n > 0) {
                count += n;
                if (capture) {
                    captured.write(buffer, offset, n);
                }
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            // Read, not skipped, so that captured bytes stay contiguous.
            byte[] skipped = in.readNBytes((int) Math.min(n, Integer.MAX_VALUE));
            count += skipped.length;
            if (capture) {
                captured.write(skipped, 0, skipped.length);
            }
            return skipped.length;
        }
    }
}
