package dev.layerfold.dedup.store;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdDecompressCtx;
import dev.layerfold.dedup.codec.recipe.FileRef;
import dev.layerfold.dedup.codec.io.LayerRebuildException;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.dedup.FileLocation;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Small files that a rebuild reads one after another and that sit side by side in one pack: read with
 * one ranged read and decompressed with one zstd context. A layer of 10,000 small files costs a few
 * reads, not 10,000, and no per-file stream set-up (a stream per file cost about 200 µs each, more
 * than decompressing a small file).
 *
 * @param refs      the files, in the order the rebuild reads them
 * @param locations where each is stored, in the same order
 * @param size      their decompressed bytes together
 */
public record FrameRun(Digest pack, long offset, long length, List<FileRef> refs, List<FileLocation> locations, long size) {

    /** Files up to this size are read whole in runs; larger ones are streamed. */
    public static final long SMALL_FILE = 4L << 20;
    /** One ranged read covers at most this many compressed bytes. */
    public static final long MAX_BYTES = 4L << 20;
    /**
     * A run's files hold at most this many bytes decompressed (besides its first file): highly
     * compressible files could otherwise make 4 MiB of frames decompress to gigabytes on the heap.
     */
    public static final long MAX_SIZE = 2L << 20;

    /** The longest run starting at {@code order.get(start)} of at most {@link #MAX_BYTES}: see {@link #from(LayerRecord, List, int, long)}. */
    public static FrameRun from(LayerRecord record, List<FileRef> order, int start) {
        return from(record, order, start, MAX_BYTES);
    }

    /**
     * The longest run starting at {@code order.get(start)}: the next files while each is adjacent to
     * the one before in the same pack and at most {@link #SMALL_FILE} bytes, the run's compressed
     * bytes stay within {@code maxBytes} (at most {@link #MAX_BYTES}) and its files' within
     * {@link #MAX_SIZE}. The first file is taken whatever its size.
     */
    public static FrameRun from(LayerRecord record, List<FileRef> order, int start, long maxBytes) {
        long limit = Math.min(maxBytes, MAX_BYTES);
        List<FileRef> refs = new ArrayList<>();
        List<FileLocation> locations = new ArrayList<>();
        FileLocation first = record.location(order.get(start));
        long end = first.offset();
        long size = 0;
        for (int i = start; i < order.size(); i++) {
            FileRef ref = order.get(i);
            FileLocation location = record.location(ref);
            boolean adjacent = location.pack().equals(first.pack()) && location.offset() == end;
            if (!refs.isEmpty() && (!adjacent || ref.size() > SMALL_FILE || end + location.length() - first.offset() > limit
                    || size + ref.size() > MAX_SIZE)) {
                break;
            }
            refs.add(ref);
            locations.add(location);
            end = location.offset() + location.length();
            size += ref.size();
        }
        return new FrameRun(first.pack(), first.offset(), end - first.offset(), List.copyOf(refs), List.copyOf(locations), size);
    }

    /**
     * Reads the run and decompresses each file, each checked for its size but not hashed: the caller
     * checks what the files make (the dedup worker's proof and a restore check the rebuilt layer's
     * digest, which covers every byte of them).
     *
     * @throws LayerRebuildException if the pack is missing or short, or a file is damaged
     */
    public List<byte[]> read(BlobStore blobs) throws IOException {
        byte[] frames = new byte[Math.toIntExact(length)];
        readFrames(blobs, frames);
        List<byte[]> contents = new ArrayList<>(refs.size());
        try (ZstdDecompressCtx zstd = new ZstdDecompressCtx()) {
            for (int i = 0; i < refs.size(); i++) {
                byte[] content = new byte[Math.toIntExact(refs.get(i).size())];
                decompress(zstd, frames, locations.get(i), refs.get(i), content, 0);
                contents.add(content);
            }
        }
        return contents;
    }

    /**
     * As {@link #read(BlobStore)}, into arrays the caller keeps and may use again: the compressed
     * frames into {@code frames} (at least {@link #length} bytes), then the files one after another
     * into {@code contents} (at least {@link #size} bytes), each from the sum of the sizes before it.
     */
    public void read(BlobStore blobs, byte[] frames, byte[] contents) throws IOException {
        readFrames(blobs, frames);
        try (ZstdDecompressCtx zstd = new ZstdDecompressCtx()) {
            int at = 0;
            for (int i = 0; i < refs.size(); i++) {
                decompress(zstd, frames, locations.get(i), refs.get(i), contents, at);
                at += (int) refs.get(i).size();
            }
        }
    }

    private void readFrames(BlobStore blobs, byte[] frames) throws IOException {
        try (InputStream in = blobs.open(pack, offset, length).orElseThrow(() -> new LayerRebuildException("pack " + pack + " is missing"))) {
            int read = in.readNBytes(frames, 0, Math.toIntExact(length));
            if (read != length) {
                throw new LayerRebuildException("pack " + pack + " ended " + (length - read) + " bytes early");
            }
        }
    }

    private void decompress(ZstdDecompressCtx zstd, byte[] frames, FileLocation location, FileRef ref, byte[] content, int contentOffset)
            throws LayerRebuildException {
        int at = (int) (location.offset() - offset);
        long n;
        try {
            n = zstd.decompressByteArray(content, contentOffset, Math.toIntExact(ref.size()), frames, at, (int) location.length());
        } catch (RuntimeException e) {
            throw new LayerRebuildException("stored file " + ref.sha256() + " is damaged: its frame does not decompress to "
                    + ref.size() + " bytes (" + e.getMessage() + ")");
        }
        if (Zstd.isError(n) || n != ref.size()) {
            throw new LayerRebuildException("stored file " + ref.sha256() + " is damaged: its frame does not decompress to "
                    + ref.size() + " bytes" + (Zstd.isError(n) ? " (" + Zstd.getErrorName(n) + ")" : ""));
        }
    }
}
