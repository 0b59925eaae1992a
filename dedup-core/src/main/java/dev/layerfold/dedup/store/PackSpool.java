package dev.layerfold.dedup.store;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdOutputStream;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.dedup.FileLocation;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.SequenceInputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The new files of one layer, compressed (one zstd frame per file, so each stays readable on its
 * own by a ranged read) into a local file while the layer is split, in the layer's order, and
 * published as packs once the worker knows which of them it may store. Files of one layer sit side
 * by side in its packs, so a restore reads them in a few large ranges. Not thread-safe: one per
 * layer being split. Closing deletes the local file.
 */
public final class PackSpool implements AutoCloseable {

    private record Frame(long offset, long length, long size) {
    }

    private final Path file;
    private final FileChannel channel;
    private final int level;
    private final Map<Digest, Frame> frames = new LinkedHashMap<>();

    /**
     * @param directory where the local file goes (the worker's scratch space)
     * @param level     the zstd level
     */
    public PackSpool(Path directory, int level) throws IOException {
        Files.createDirectories(directory);
        this.file = Files.createTempFile(directory, "pack-", ".spool");
        this.channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        this.level = level;
    }

    public boolean contains(Digest fileDigest) {
        return frames.containsKey(fileDigest);
    }

    public Collection<Digest> files() {
        return Collections.unmodifiableSet(frames.keySet());
    }

    /** Compressed bytes spooled so far. */
    public long size() throws IOException {
        return channel.size();
    }

    /** Adds a file held in memory. */
    public void add(Digest fileDigest, byte[] content, int length) throws IOException {
        byte[] frame = compress(content, length);
        long offset = channel.size();
        channel.write(ByteBuffer.wrap(frame), offset);
        frames.put(fileDigest, new Frame(offset, frame.length, length));
    }

    /** Adds a file too large to hold in memory, streamed from {@code content}. */
    public void add(Digest fileDigest, InputStream content, long size) throws IOException {
        long offset = channel.size();
        channel.position(offset);
        OutputStream out = Channels.newOutputStream(channel);
        try (ZstdOutputStream zstd = new ZstdOutputStream(new NonClosing(out), level)) {
            content.transferTo(zstd);
        }
        frames.put(fileDigest, new Frame(offset, channel.size() - offset, size));
    }

    private byte[] compress(byte[] content, int length) {
        byte[] bound = new byte[(int) Zstd.compressBound(length)];
        long written = Zstd.compressByteArray(bound, 0, bound.length, content, 0, length, level);
        if (Zstd.isError(written)) {
            throw new IllegalStateException("zstd failed: " + Zstd.getErrorName(written));
        }
        return Arrays.copyOf(bound, (int) written);
    }

    /** A published pack and where its files landed in it. */
    public record Pack(Digest digest, long size, Map<Digest, FileLocation> files) {
    }

    /**
     * Publishes the spooled files in {@code keep} (in spool order) as packs of at most about
     * {@code packSize} bytes each, a file never split across two.
     */
    public List<Pack> publish(Collection<Digest> keep, long packSize, ContentAddressedWriter writer) throws IOException {
        List<Pack> packs = new ArrayList<>();
        List<Map.Entry<Digest, Frame>> batch = new ArrayList<>();
        long batchSize = 0;
        for (Map.Entry<Digest, Frame> frame : frames.entrySet()) {
            if (!keep.contains(frame.getKey())) {
                continue;
            }
            if (!batch.isEmpty() && batchSize + frame.getValue().length() > packSize) {
                packs.add(publish(batch, writer));
                batch = new ArrayList<>();
                batchSize = 0;
            }
            batch.add(frame);
            batchSize += frame.getValue().length();
        }
        if (!batch.isEmpty()) {
            packs.add(publish(batch, writer));
        }
        return packs;
    }

    private Pack publish(List<Map.Entry<Digest, Frame>> batch, ContentAddressedWriter writer) throws IOException {
        List<InputStream> frameStreams = new ArrayList<>();
        for (Map.Entry<Digest, Frame> entry : batch) {
            frameStreams.add(new FrameStream(entry.getValue()));
        }
        Digest pack = writer.write(new SequenceInputStream(Collections.enumeration(frameStreams)));
        Map<Digest, FileLocation> locations = new LinkedHashMap<>();
        long position = 0;
        for (Map.Entry<Digest, Frame> entry : batch) {
            Frame frame = entry.getValue();
            locations.put(entry.getKey(), new FileLocation(pack, position, frame.length(), frame.size()));
            position += frame.length();
        }
        return new Pack(pack, position, locations);
    }

    /** One frame of the spool, read by positional reads so that frames can be read one after another. */
    private final class FrameStream extends InputStream {
        private long position;
        private final long end;

        FrameStream(Frame frame) {
            this.position = frame.offset();
            this.end = frame.offset() + frame.length();
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            if (position >= end) {
                return -1;
            }
            int n = channel.read(ByteBuffer.wrap(buffer, offset, (int) Math.min(length, end - position)), position);
            if (n < 0) {
                throw new IOException("pack spool " + file + " ended early");
            }
            position += n;
            return n;
        }
    }

    private static final class NonClosing extends FilterOutputStream {
        NonClosing(OutputStream out) {
            super(out);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }

    @Override
    public void close() throws IOException {
        try {
            channel.close();
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
