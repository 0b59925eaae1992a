package dev.layerfold.dedup.store;

import com.github.luben.zstd.ZstdInputStream;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.dedup.DedupIndex;
import dev.layerfold.storage.dedup.FileLocation;
import dev.layerfold.storage.dedup.PackCopy;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.SequenceInputStream;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Rewrites a pack's live frames into a new pack. A pack names none of its files, so the copier reads
 * it once, frame by frame, decompressing and hashing each to learn whose it is, and asks the index
 * which of those it still locates at that frame: the others are dead (forgotten, or a second copy of
 * a file stored elsewhere). The live frames are then copied byte for byte, adjacent ones in one
 * ranged read, into a new content-addressed pack. Every frame copied was hashed right before, so a
 * damaged frame is never carried over (the copy fails instead, and the pack stays as it is).
 */
public final class LivePackCopier {

    /** Frames up to this size are hashed from the one read of the pack; larger ones by a read of their own. */
    private static final int IN_MEMORY_FRAME = 4 << 20;

    private final BlobStore blobs;
    private final DedupIndex index;
    private final ContentAddressedWriter writer;

    public LivePackCopier(BlobStore blobs, DedupIndex index) {
        this.blobs = blobs;
        this.index = index;
        this.writer = new ContentAddressedWriter(blobs);
    }

    /**
     * Publishes a new pack holding the frames of {@code pack} whose files the index still locates
     * there, in their order, and says where each went; empty if none is live. The index is not changed:
     * the caller switches the files with {@link DedupIndex#relocate}.
     */
    public Optional<PackCopy> copyLive(Digest pack) throws IOException {
        Map<Digest, ZstdFrames.Frame> frames = framesByFile(pack);
        List<Map.Entry<Digest, ZstdFrames.Frame>> live = new ArrayList<>();
        Map<Digest, FileLocation> located = index.files(frames.keySet());
        for (Map.Entry<Digest, FileLocation> file : located.entrySet()) {
            ZstdFrames.Frame frame = frames.get(file.getKey());
            FileLocation location = file.getValue();
            if (location.pack().equals(pack) && location.offset() == frame.offset() && location.length() == frame.length()) {
                live.add(Map.entry(file.getKey(), frame));
            }
        }
        if (live.isEmpty()) {
            return Optional.empty();
        }
        live.sort(Map.Entry.comparingByValue((a, b) -> Long.compare(a.offset(), b.offset())));
        Map<Digest, Long> oldOffsets = new LinkedHashMap<>();
        Map<Digest, Long> newOffsets = new LinkedHashMap<>();
        long position = 0;
        for (Map.Entry<Digest, ZstdFrames.Frame> frame : live) {
            oldOffsets.put(frame.getKey(), frame.getValue().offset());
            newOffsets.put(frame.getKey(), position);
            position += frame.getValue().length();
        }
        Digest copy = writer.write(new SequenceInputStream(Collections.enumeration(runs(pack, live))));
        Map<Digest, FileLocation> locations = new LinkedHashMap<>();
        for (Map.Entry<Digest, ZstdFrames.Frame> frame : live) {
            locations.put(frame.getKey(), new FileLocation(copy, newOffsets.get(frame.getKey()), frame.getValue().length(),
                    located.get(frame.getKey()).size()));
        }
        return Optional.of(new PackCopy(copy, position, oldOffsets, locations));
    }

    /** Every frame of the pack, by the sha256 of what it decompresses to (a file's name). */
    private Map<Digest, ZstdFrames.Frame> framesByFile(Digest pack) throws IOException {
        Map<Digest, ZstdFrames.Frame> frames = new LinkedHashMap<>();
        try (InputStream in = blobs.open(pack, 0, -1).orElseThrow(() -> new IOException("pack " + pack + " is missing"))) {
            ZstdFrames reader = new ZstdFrames(in, IN_MEMORY_FRAME);
            for (ZstdFrames.Frame frame = reader.next(); frame != null; frame = reader.next()) {
                try (InputStream compressed = frame.bytesIfSmall() != null ? new ByteArrayInputStream(frame.bytesIfSmall())
                        : blobs.open(pack, frame.offset(), frame.length()).orElseThrow(() -> new IOException("pack " + pack + " is missing"))) {
                    frames.putIfAbsent(sha256Of(new ZstdInputStream(compressed)), frame);
                }
            }
        }
        return frames;
    }

    private static Digest sha256Of(InputStream in) throws IOException {
        MessageDigest sha256 = Digest.Algorithm.SHA256.newMessageDigest();
        try (DigestInputStream digesting = new DigestInputStream(in, sha256)) {
            digesting.transferTo(OutputStream.nullOutputStream());
        }
        return Digest.fromBytes(Digest.Algorithm.SHA256, sha256.digest());
    }

    /** The live frames as ranged reads of the old pack, adjacent frames in one read, opened lazily in order. */
    private List<InputStream> runs(Digest pack, List<Map.Entry<Digest, ZstdFrames.Frame>> live) {
        List<InputStream> runs = new ArrayList<>();
        int i = 0;
        while (i < live.size()) {
            long start = live.get(i).getValue().offset();
            long end = start + live.get(i).getValue().length();
            int j = i + 1;
            while (j < live.size() && live.get(j).getValue().offset() == end) {
                end += live.get(j).getValue().length();
                j++;
            }
            runs.add(new LazyRange(pack, start, end - start));
            i = j;
        }
        return runs;
    }

    /** A ranged read opened on its first read, so that a pack of many runs does not hold many responses open. */
    private final class LazyRange extends InputStream {
        private final Digest pack;
        private final long offset;
        private final long length;
        private InputStream in;

        LazyRange(Digest pack, long offset, long length) {
            this.pack = pack;
            this.offset = offset;
            this.length = length;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] buffer, int off, int len) throws IOException {
            if (in == null) {
                in = blobs.open(pack, offset, length).orElseThrow(() -> new IOException("pack " + pack + " is missing"));
            }
            return in.read(buffer, off, len);
        }

        @Override
        public void close() throws IOException {
            if (in != null) {
                in.close();
            }
        }
    }
}
