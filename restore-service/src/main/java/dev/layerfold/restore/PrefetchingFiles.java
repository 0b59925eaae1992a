package dev.layerfold.restore;

import com.github.luben.zstd.Zstd;
import dev.layerfold.dedup.codec.FileContentSource;
import dev.layerfold.dedup.codec.FileRef;
import dev.layerfold.dedup.codec.LayerRebuildException;
import dev.layerfold.dedup.store.LayerRecord;
import dev.layerfold.dedup.store.StoredFiles;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.dedup.FileLocation;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;

/**
 * Hands a layer's files to the encoder in recipe order while fetching the next ones in parallel,
 * ahead of it: small files in batches (files side by side in one pack come in one ranged read, so a
 * layer of 10,000 small files costs a few reads, not 10,000), each decompressed and checked against
 * its digest off the encoder's thread. At most {@link #AHEAD_BYTES} of fetched content wait at once;
 * large files are streamed when the encoder reaches them.
 */
final class PrefetchingFiles implements FileContentSource {

    static final long AHEAD_BYTES = 16L << 20;
    /** Files up to this size are fetched ahead whole; larger ones are streamed. */
    static final long SMALL_FILE = 4L << 20;
    /** One ranged read covers at most this many compressed bytes. */
    static final long BATCH_BYTES = 4L << 20;

    private record Batch(Digest pack, long offset, long length, List<FileRef> refs, List<FileLocation> locations, long size,
                         CompletableFuture<List<byte[]>> contents) {
    }

    private final BlobStore blobs;
    private final StoredFiles storedFiles;
    private final LayerRecord record;
    private final List<FileRef> order;
    private final Executor fetchers;
    private final Deque<Batch> ahead = new ArrayDeque<>();
    private int scheduled;
    private long aheadBytes;
    private Batch current;
    private int inCurrent;

    PrefetchingFiles(BlobStore blobs, LayerRecord record, List<FileRef> order, Executor fetchers) {
        this.blobs = blobs;
        this.storedFiles = new StoredFiles(blobs);
        this.record = record;
        this.order = order;
        this.fetchers = fetchers;
    }

    @Override
    public InputStream open(FileRef ref) throws IOException {
        if (current != null && inCurrent < current.refs().size()) {
            return next(ref);
        }
        if (current != null) {
            aheadBytes -= current.size();
            current = null;
        }
        scheduleAhead();
        current = ahead.pollFirst();
        inCurrent = 0;
        if (current == null) {
            // A large file: streamed, verified as it is read.
            scheduled++;
            return storedFiles.open(ref, record.location(ref));
        }
        return next(ref);
    }

    private InputStream next(FileRef ref) throws IOException {
        FileRef expected = current.refs().get(inCurrent);
        if (!expected.equals(ref)) {
            throw new IllegalStateException("files asked out of recipe order: " + ref + " where " + expected + " was next");
        }
        byte[] content = await(current.contents()).get(inCurrent++);
        return new ByteArrayInputStream(content);
    }

    /** Starts fetching the batches of small files after what was scheduled, up to the look-ahead budget. */
    private void scheduleAhead() {
        while (scheduled < order.size() && aheadBytes < AHEAD_BYTES) {
            FileRef first = order.get(scheduled);
            if (first.size() > SMALL_FILE) {
                if (ahead.isEmpty()) {
                    return;
                }
                break;
            }
            Batch batch = batchFrom(scheduled);
            scheduled += batch.refs().size();
            aheadBytes += batch.size();
            ahead.addLast(batch);
        }
    }

    private Batch batchFrom(int start) {
        List<FileRef> refs = new ArrayList<>();
        List<FileLocation> locations = new ArrayList<>();
        FileLocation first = record.location(order.get(start));
        long end = first.offset();
        long size = 0;
        for (int i = start; i < order.size(); i++) {
            FileRef ref = order.get(i);
            FileLocation location = record.location(ref);
            boolean adjacent = location.pack().equals(first.pack()) && location.offset() == end;
            if (!refs.isEmpty() && (!adjacent || ref.size() > SMALL_FILE || end + location.length() - first.offset() > BATCH_BYTES)) {
                break;
            }
            refs.add(ref);
            locations.add(location);
            end = location.offset() + location.length();
            size += ref.size();
        }
        long offset = first.offset();
        long length = end - offset;
        CompletableFuture<List<byte[]>> contents = CompletableFuture.supplyAsync(() -> fetch(first.pack(), offset, length, refs, locations), fetchers);
        return new Batch(first.pack(), offset, length, refs, locations, size, contents);
    }

    private List<byte[]> fetch(Digest pack, long offset, long length, List<FileRef> refs, List<FileLocation> locations) {
        try (InputStream in = blobs.open(pack, offset, length)
                .orElseThrow(() -> new LayerRebuildException("pack " + pack + " is missing"))) {
            byte[] frames = in.readNBytes((int) length);
            if (frames.length != length) {
                throw new LayerRebuildException("pack " + pack + " ended " + (length - frames.length) + " bytes early");
            }
            List<byte[]> contents = new ArrayList<>(refs.size());
            for (int i = 0; i < refs.size(); i++) {
                contents.add(decompress(frames, locations.get(i), offset, refs.get(i)));
            }
            return contents;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] decompress(byte[] frames, FileLocation location, long batchOffset, FileRef ref) throws LayerRebuildException {
        int at = (int) (location.offset() - batchOffset);
        byte[] content = new byte[(int) ref.size()];
        long n = Zstd.decompressByteArray(content, 0, content.length, frames, at, (int) location.length());
        if (Zstd.isError(n) || n != ref.size()) {
            throw new LayerRebuildException("stored file " + ref.sha256() + " is damaged: its frame does not decompress to "
                    + ref.size() + " bytes" + (Zstd.isError(n) ? " (" + Zstd.getErrorName(n) + ")" : ""));
        }
        String actual = HexFormat.of().formatHex(Digest.Algorithm.SHA256.newMessageDigest().digest(content));
        if (!actual.equals(ref.sha256())) {
            throw new LayerRebuildException("stored file " + ref.sha256() + " is damaged: its bytes hash to " + actual);
        }
        return content;
    }

    private static <T> T await(CompletableFuture<T> future) throws IOException {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while fetching stored files");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UncheckedIOException io) {
                throw io.getCause();
            }
            throw new IOException("fetching stored files failed: " + e.getCause(), e.getCause());
        }
    }
}
