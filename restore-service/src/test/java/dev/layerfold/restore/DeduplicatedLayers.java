package dev.layerfold.restore;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.luben.zstd.ZstdCompressCtx;
import dev.layerfold.dedup.codec.LayerRebuilder;
import dev.layerfold.dedup.codec.LayerSplitter;
import dev.layerfold.dedup.codec.deflate.DeflateEncoder;
import dev.layerfold.dedup.codec.deflate.golang.GoFlateEncoder;
import dev.layerfold.dedup.codec.deflate.klauspost.KlauspostFlateEncoder;
import dev.layerfold.dedup.codec.deflate.pigz.PigzEncoder;
import dev.layerfold.dedup.codec.deflate.pigz.PigzSettings;
import dev.layerfold.dedup.codec.deflate.zlib.GnuGzipEncoder;
import dev.layerfold.dedup.codec.identify.StandardEncoders;
import dev.layerfold.dedup.codec.zstd.klauspost.KlauspostSettings;
import dev.layerfold.dedup.codec.zstd.klauspost.KlauspostZstdEncoder;
import dev.layerfold.dedup.pipeline.DedupLimits;
import dev.layerfold.dedup.pipeline.DedupOutcome;
import dev.layerfold.dedup.pipeline.DedupSettings;
import dev.layerfold.dedup.pipeline.IntactCopyPolicy;
import dev.layerfold.dedup.pipeline.LayerDeduplicator;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.dedup.DedupIndex;
import dev.layerfold.storage.dedup.LayerTask;
import dev.layerfold.storage.gc.GcIndex;
import java.io.ByteArrayInputStream;
import dev.layerfold.dedup.codec.zstd.klauspost.KlauspostSettings;
import dev.layerfold.dedup.codec.zstd.klauspost.KlauspostZstdEncoder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

/** Layers for restore tests: made up, pushed into a blob store and run through the real pipeline. */
final class DeduplicatedLayers {

    private static final String GZIP_LAYER = "application/vnd.oci.image.layer.v1.tar+gzip";
    /** Go's compress/gzip header at levels other than 1 and 9: no extra flags, OS 255 (unknown). */
    private static final byte[] GO_HEADER = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 0xff};
    private static final String ZSTD_LAYER = "application/vnd.oci.image.layer.v1.tar+zstd";
    /** eStargz's chunk size in its tests, and about zstd:chunked's frame per file: many small independent members or frames. */
    private static final int CHUNK = 64 * 1024;

    private DeduplicatedLayers() {
    }

    /** A gzip'd tar of {@code files} files of 5-65 KB, which the JDK's zlib encoder reproduces. */
    static byte[] layer(Random random, int files) throws IOException {
        return layer(random, files, 20);
    }

    /** A gzip layer of {@code files} files of 5 to 65 KB, each byte one of {@code alphabet} values from 'a' on (256: any byte). */
    static byte[] layer(Random random, int files, int alphabet) throws IOException {
        ByteArrayOutputStream blob = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(new GZIPOutputStream(blob))) {
            for (int i = 0; i < files; i++) {
                byte[] content = new byte[5_000 + random.nextInt(60_000)];
                for (int j = 0; j < content.length; j++) {
                    content[j] = (byte) ('a' + random.nextInt(alphabet));
                }
                TarArchiveEntry entry = new TarArchiveEntry("file-" + i);
                entry.setSize(content.length);
                tar.putArchiveEntry(entry);
                tar.write(content);
                tar.closeArchiveEntry();
            }
        }
        return blob.toByteArray();
    }

    /**
     * A pigz -6 layer (128 KiB blocks, the several-threads code path) of about {@code megabytes} MB of
     * tar: text files of a few letters, large enough for restart points every 4 MiB.
     */
    static byte[] pigzLayer(Random random, int megabytes) throws IOException {
        return gzip(textTar(random, megabytes), out -> PigzEncoder.create(out, 6, PigzSettings.DEFAULT_BLOCK_SIZE));
    }

    /** The same tar through Go's {@code compress/gzip} -6, as docker and buildkit write it: points inside bytes, with state values. */
    static byte[] goLayer(Random random, int megabytes) throws IOException {
        return gzip(textTar(random, megabytes), out -> GoFlateEncoder.create(out, 6));
    }

    /**
     * This machine's system files through Go's level 1, as crane, ko and kaniko write layers (through
     * go-containerregistry's BestSpeed): points at 65535-byte block boundaries where a warm-up over the
     * two blocks before rebuilds the match finder's table.
     */
    static byte[] goLevel1Layer(Random random, int megabytes) throws IOException {
        return gzip(systemFilesTar(random, megabytes), out -> GoFlateEncoder.create(out, 1));
    }

    /**
     * This machine's system files through Go's level 2 (greedy hash chains that skip hashing inside long
     * matches): points where the proof saw a warm-up over the 256 KiB before rebuild the chains.
     */
    static byte[] goLevel2Layer(Random random, int megabytes) throws IOException {
        return gzip(systemFilesTar(random, megabytes), out -> GoFlateEncoder.create(out, 2));
    }

    /**
     * This machine's system files through Go's level 0 (stored) or -2 (HuffmanOnly), with the header
     * Go's {@code compress/gzip} writes (OS 255, which ranks Go's encoders first; under OS 3 zlib's
     * level 0, which reproduced such a stored layer too, is tried first): points at every 64th
     * 65535-byte block boundary.
     */
    static byte[] goStoreLayer(Random random, int megabytes, int level) throws IOException {
        return gzip(GO_HEADER, systemFilesTar(random, megabytes), out -> GoFlateEncoder.create(out, level));
    }

    /** The same tar through the JDK's {@code GZIPOutputStream} (zlib -6 with its defaults, as Python and most zlib tools write it). */
    static byte[] zlibLayer(Random random, int megabytes) throws IOException {
        ByteArrayOutputStream blob = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(blob, 64 * 1024)) {
            gzip.write(textTar(random, megabytes));
        }
        return blob.toByteArray();
    }

    /** The same tar through GNU gzip -6 (this port of it writes the gzip binary's bytes): blocks of up to 32767 symbols. */
    static byte[] gnuGzipLayer(Random random, int megabytes) throws IOException {
        return gzip(textTar(random, megabytes), out -> GnuGzipEncoder.create(out, 6));
    }

    /**
     * This machine's system files through GNU gzip -1 (scripts' fast gzip): its restart points lie where
     * the proof saw a segment resumed by a warm-up go on as the encoder did, as on real files.
     */
    static byte[] gnuGzipLevel1Layer(Random random, int megabytes) throws IOException {
        return gzip(systemFilesTar(random, megabytes), out -> GnuGzipEncoder.create(out, 1));
    }

    /**
     * This machine's system files through Go 1.27's level 6 (docker, buildkit and containerd built with
     * Go 1.27): its restart points lie where a warm-up rebuilds the encoder's state, as on real files
     * (the random letters of {@link #textTar} keep one Huffman table open for the whole layer).
     */
    static byte[] go127Layer(Random random, int megabytes) throws IOException {
        return gzip(systemFilesTar(random, megabytes), out -> KlauspostFlateEncoder.go127(out, 6));
    }

    /**
     * The same system files through Go 1.27's level 9 (eStargz's, and some tools'): lazy hash
     * chains whose Huffman table stays open across blocks, so each point carries the state where
     * the block that headed it began and a resume encodes the blocks from there again.
     */
    static byte[] go127Level9Layer(Random random, int megabytes) throws IOException {
        return gzip(systemFilesTar(random, megabytes), out -> KlauspostFlateEncoder.go127(out, 9));
    }

    /**
     * The same system files through Go 1.27's level -2 (HuffmanOnly), with Go's header: a Huffman table
     * may span 32 KiB windows, so each point carries its age and a resume replays those windows.
     */
    static byte[] go127HuffmanOnlyLayer(Random random, int megabytes) throws IOException {
        return gzip(GO_HEADER, systemFilesTar(random, megabytes), out -> KlauspostFlateEncoder.go127(out, -2));
    }

    /**
     * This machine's system files as eStargz lays them out: a gzip member of Go's level 6 (compress/gzip,
     * as stargz-snapshotter writes it) per 64 KiB of tar, each its own deflate stream.
     */
    static byte[] multiMemberGoLayer(Random random, int megabytes) throws IOException {
        byte[] tar = systemFilesTar(random, megabytes);
        ByteArrayOutputStream blob = new ByteArrayOutputStream();
        for (int at = 0; at < tar.length; at += CHUNK) {
            blob.write(gzip(java.util.Arrays.copyOfRange(tar, at, Math.min(tar.length, at + CHUNK)), out -> GoFlateEncoder.create(out, 6)));
        }
        return blob.toByteArray();
    }

    /**
     * The same files as zstd:chunked lays them out: a zstd frame per 64 KiB of tar from klauspost's
     * Writer at SpeedDefault (podman's zstd level 3), reset between frames.
     */
    static byte[] multiFrameZstdLayer(Random random, int megabytes) throws IOException {
        byte[] tar = systemFilesTar(random, megabytes);
        ByteArrayOutputStream blob = new ByteArrayOutputStream();
        KlauspostZstdEncoder encoder = new KlauspostZstdEncoder(new KlauspostSettings(2, KlauspostSettings.Release.COMPRESS_1_18_0), blob);
        for (int at = 0; at < tar.length; at += CHUNK) {
            encoder.reset(new long[0], blob);
            encoder.write(tar, at, Math.min(tar.length - at, CHUNK));
            encoder.finish();
        }
        return blob.toByteArray();
    }

    /** Files under /usr/share and /usr/lib in a shuffled order (by {@code random}), about {@code megabytes} MB of tar. */
    /**
     * System files through klauspost/compress/zstd's Writer (the port) at {@code level}: SpeedDefault for podman's, containerd's,
     * BuildKit's layers.
     */
    static byte[] klauspostZstdLayer(Random random, int megabytes, int level) throws IOException {
        byte[] tar = systemFilesTar(random, megabytes);
        ByteArrayOutputStream blob = new ByteArrayOutputStream();
        KlauspostZstdEncoder encoder = new KlauspostZstdEncoder(new KlauspostSettings(level, KlauspostSettings.Release.COMPRESS_1_18_0), blob);
        encoder.write(tar, 0, tar.length);
        encoder.finish();
        return blob.toByteArray();
    }

    /**
     * System files through libzstd (zstd-jni's) at {@code level} with a worker thread, as the zstd CLI writes a file by default:
     * its size pledged, a checksum, in jobs of four windows.
     */
    static byte[] libzstdLayer(Random random, int megabytes, int level) throws IOException {
        byte[] tar = systemFilesTar(random, megabytes);
        try (ZstdCompressCtx libzstd = new ZstdCompressCtx()) {
            return libzstd.setLevel(level).setWorkers(1).setChecksum(true).compress(tar);
        }
    }

    private static byte[] systemFilesTar(Random random, int megabytes) throws IOException {
        List<Path> files = new ArrayList<>();
        for (String dir : List.of("/usr/share", "/usr/lib")) {
            try (Stream<Path> walk = Files.walk(Path.of(dir))) {
                walk.filter(Files::isRegularFile).filter(Files::isReadable).filter(f -> f.toFile().length() < 4 << 20)
                        .sorted().limit(20_000).forEach(files::add);
            }
        }
        Collections.shuffle(files, random);
        return tar(megabytes, i -> i < files.size() ? Files.readAllBytes(files.get(i)) : null);
    }

    private static byte[] textTar(Random random, int megabytes) throws IOException {
        return tar(megabytes, i -> {
            byte[] content = new byte[5_000 + random.nextInt(200_000)];
            for (int j = 0; j < content.length; j++) {
                content[j] = (byte) ('a' + random.nextInt(12));
            }
            return content;
        });
    }

    private interface Contents {
        /** The content of file {@code i}, or null when there are no more. */
        byte[] of(int i) throws IOException;
    }

    /** A tar of files {@code file-0, file-1...} with {@code contents}, until about {@code megabytes} MB. */
    private static byte[] tar(int megabytes, Contents contents) throws IOException {
        ByteArrayOutputStream tarBytes = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(tarBytes)) {
            for (int i = 0; tarBytes.size() < megabytes << 20; i++) {
                byte[] content = contents.of(i);
                if (content == null) {
                    break;
                }
                TarArchiveEntry entry = new TarArchiveEntry("file-" + i);
                entry.setSize(content.length);
                tar.putArchiveEntry(entry);
                tar.write(content);
                tar.closeArchiveEntry();
            }
        }
        return tarBytes.toByteArray();
    }

    private static byte[] gzip(byte[] tar, Function<OutputStream, DeflateEncoder> encoder) throws IOException {
        return gzip(new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, 3}, tar, encoder);
    }

    private static byte[] gzip(byte[] header, byte[] tar, Function<OutputStream, DeflateEncoder> encoder) throws IOException {
        ByteArrayOutputStream blob = new ByteArrayOutputStream();
        blob.write(header);
        DeflateEncoder deflate = encoder.apply(blob);
        deflate.write(tar, 0, tar.length);
        deflate.finish();
        CRC32 crc = new CRC32();
        crc.update(tar);
        for (long value : new long[] {crc.getValue(), tar.length}) {
            for (int i = 0; i < 4; i++) {
                blob.write((int) (value >>> (8 * i)));
            }
        }
        return blob.toByteArray();
    }

    /** Pushes the layer into the blob store and runs the real pipeline on it; it must come out thinned. */
    static byte[] deduplicated(BlobStore blobs, DedupIndex index, GcIndex gc, Path scratch, byte[] layer) throws IOException {
        push(blobs, layer);
        DedupOutcome outcome = deduplicator(blobs, index, gc, scratch).deduplicate(task(layer), "test");
        assertThat(outcome.kind()).isEqualTo(DedupOutcome.Kind.DEDUPLICATED);
        assertThat(blobs.size(Digest.sha256(layer))).as("thinned").isEmpty();
        return layer;
    }

    static void push(BlobStore blobs, byte[] layer) throws IOException {
        String upload = "push-" + Digest.sha256(layer).hex();
        blobs.startUpload(upload);
        blobs.append(upload, new ByteArrayInputStream(layer));
        blobs.publish(upload, Digest.sha256(layer));
    }

    static LayerDeduplicator deduplicator(BlobStore blobs, DedupIndex index, GcIndex gc, Path scratch) {
        return new LayerDeduplicator(blobs, index, gc, new LayerSplitter(StandardEncoders.identifier()),
                new LayerRebuilder(StandardEncoders.factory()),
                new DedupSettings(scratch, 3, 64 << 20, Duration.ofMinutes(1), DedupLimits.DEFAULT), IntactCopyPolicy.NO_COPIES);
    }

    static LayerTask task(byte[] layer) {
        boolean zstd = layer.length > 4 && layer[0] == 0x28 && layer[1] == (byte) 0xb5 && layer[2] == 0x2f && layer[3] == (byte) 0xfd;
        return new LayerTask(Digest.sha256(layer), zstd ? ZSTD_LAYER : GZIP_LAYER, layer.length);
    }
}
