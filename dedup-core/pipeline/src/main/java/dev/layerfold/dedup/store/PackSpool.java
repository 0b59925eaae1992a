package dev.layerfold.dedup.store;

import com.github.luben.zstd.EndDirective;
import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.dedup.FileLocation;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
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

    private static final int STREAM_BUFFER = 1 << 20;

    private final Path file;
    private final FileChannel channel;
    private final int level;
    /** One context for the layer's small files: setting one up per file cost a tenth of compressing them. */
    private final ZstdCompressCtx zstd;
    private byte[] compressed = new byte[0];
    /** For files streamed from scratch files; allocated for the first of them. */
    private ByteBuffer streamIn;
    private ByteBuffer streamOut;
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
        this.zstd = new ZstdCompressCtx().setLevel(level);
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
        int bound = Math.toIntExact(Zstd.compressBound(length));
        if (compressed.length < bound) {
            compressed = new byte[Math.max(bound, 2 * compressed.length)];
        }
        int frameLength = zstd.compressByteArray(compressed, 0, bound, content, 0, length);
        long offset = channel.size();
        ByteBuffer frame = ByteBuffer.wrap(compressed, 0, frameLength);
        for (long position = offset; frame.hasRemaining(); ) {
            position += channel.write(frame, position);
        }
        frames.put(fileDigest, new Frame(offset, frameLength, length));
    }

    /**
     * Adds a file too large to hold in memory, streamed from the local file {@code content} of
     * {@code size} bytes. Its size is pledged to zstd, which picks the parameters for it as it does
     * for a file in memory, and the bytes move in large pieces through direct buffers: a stream fed
     * in small heap pieces cost a third more CPU than compressing the same bytes in one call.
     */
    public void add(Digest fileDigest, Path content, long size) throws IOException {
        if (streamIn == null) {
            streamIn = ByteBuffer.allocateDirect(STREAM_BUFFER);
            streamOut = ByteBuffer.allocateDirect(STREAM_BUFFER);
        }
        long offset = channel.size();
        long position = offset;
        zstd.setPledgedSrcSize(size);
        try (FileChannel in = FileChannel.open(content, StandardOpenOption.READ)) {
            long left = size;
            boolean done = false;
            while (!done) {
                streamIn.clear();
                if (left > 0) {
                    streamIn.limit((int) Math.min(STREAM_BUFFER, left));
                    while (streamIn.hasRemaining()) {
                        if (in.read(streamIn) < 0) {
                            throw new IOException("scratch file " + content + " ended " + (left - streamIn.position()) + " bytes early");
                        }
                    }
                    left -= streamIn.position();
                }
                streamIn.flip();
                EndDirective directive = left == 0 ? EndDirective.END : EndDirective.CONTINUE;
                do {
                    streamOut.clear();
                    done = zstd.compressDirectByteBufferStream(streamOut, streamIn, directive) && directive == EndDirective.END;
                    streamOut.flip();
                    while (streamOut.hasRemaining()) {
                        position += channel.write(streamOut, position);
                    }
                } while (streamIn.hasRemaining() || (directive == EndDirective.END && !done));
            }
        } finally {
            // A stream that failed midway must not leave its frame open for the next file; a reset forgets the level too.
            zstd.reset();
            zstd.setLevel(level);
        }
        frames.put(fileDigest, new Frame(offset, position - offset, size));
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

    @Override
    public void close() throws IOException {
        try (channel) {
            zstd.close();
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
