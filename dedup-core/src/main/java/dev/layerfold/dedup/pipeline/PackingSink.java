package dev.layerfold.dedup.pipeline;

import dev.layerfold.dedup.codec.FileRef;
import dev.layerfold.dedup.codec.FileSink;
import dev.layerfold.dedup.store.PackSpool;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.dedup.DedupIndex;
import dev.layerfold.storage.dedup.FileLocation;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Receives a layer's file bodies from the splitter and keeps the ones the registry does not store
 * yet. A body's digest is known only once it ended, so each body is buffered (in memory up to
 * {@link #MEMORY_LIMIT}, in a scratch file beyond) until then; a body already stored, or seen earlier
 * in this layer, is dropped, and a new one is compressed into the layer's {@link PackSpool}.
 *
 * <p>It also enforces the limits that make a hostile layer cost bounded time and disk: the bytes
 * a layer may inflate to, its number of files, and a deadline.
 */
final class PackingSink implements FileSink {

    /** Bodies up to this size are compressed from memory in one call; one buffer per worker. */
    static final int MEMORY_LIMIT = 1 << 20;

    private final DedupIndex index;
    private final PackSpool spool;
    private final Path scratch;
    private final DedupLimits limits;
    private final long inflateLimit;
    private final long deadlineNanos;
    private final Map<Digest, FileLocation> stored = new LinkedHashMap<>();
    private byte[] memory = new byte[64 * 1024];
    private long inflated;
    private long files;

    PackingSink(DedupIndex index, PackSpool spool, Path scratch, DedupLimits limits, long compressedSize) {
        this.index = index;
        this.spool = spool;
        this.scratch = scratch;
        this.limits = limits;
        this.inflateLimit = limits.inflateLimit(compressedSize);
        this.deadlineNanos = System.nanoTime() + limits.timePerLayer().toNanos();
    }

    /** Files of the layer that were stored already when the split met them, with their locations. */
    Map<Digest, FileLocation> alreadyStored() {
        return stored;
    }

    @Override
    public Body begin(long declaredSize) throws IOException {
        if (++files > limits.maxFiles()) {
            throw new LayerTooCostlyException("the layer has more than " + limits.maxFiles() + " files; such a layer stays intact");
        }
        return new Buffered();
    }

    private void account(int length) throws LayerTooCostlyException {
        inflated += length;
        if (inflated > inflateLimit) {
            throw new LayerTooCostlyException("the layer inflates to more than " + inflateLimit + " bytes (a gzip bomb, or a layer "
                    + "too large to split); it stays intact");
        }
        if (System.nanoTime() - deadlineNanos > 0) {
            throw new LayerTooCostlyException("splitting the layer took longer than " + limits.timePerLayer() + "; it stays intact");
        }
    }

    /** A body on its way: in {@link #memory} until it outgrows it, then in a scratch file. */
    private final class Buffered implements Body {
        private int inMemory;
        private Path spilled;
        private OutputStream spill;

        @Override
        public void write(byte[] data, int offset, int length) throws IOException {
            account(length);
            if (spill == null && inMemory + length <= MEMORY_LIMIT) {
                if (inMemory + length > memory.length) {
                    memory = Arrays.copyOf(memory, Math.min(MEMORY_LIMIT, Math.max(memory.length * 2, inMemory + length)));
                }
                System.arraycopy(data, offset, memory, inMemory, length);
                inMemory += length;
                return;
            }
            if (spill == null) {
                spilled = Files.createTempFile(scratch, "body-", ".tmp");
                spill = Files.newOutputStream(spilled);
                spill.write(memory, 0, inMemory);
            }
            spill.write(data, offset, length);
        }

        @Override
        public void complete(FileRef ref) throws IOException {
            try {
                Digest digest = Digest.parse("sha256:" + ref.sha256());
                if (spool.contains(digest) || stored.containsKey(digest)) {
                    return;
                }
                var location = index.file(digest);
                if (location.isPresent()) {
                    stored.put(digest, location.get());
                    return;
                }
                if (spill == null) {
                    spool.add(digest, memory, inMemory);
                } else {
                    spill.close();
                    try (InputStream content = Files.newInputStream(spilled)) {
                        spool.add(digest, content, ref.size());
                    }
                }
            } finally {
                discard();
            }
        }

        @Override
        public void abort() {
            try {
                discard();
            } catch (IOException e) {
                // The scratch directory is emptied when the worker starts; nothing else refers to this file.
            }
        }

        private void discard() throws IOException {
            inMemory = 0;
            if (spill != null) {
                spill.close();
                Files.deleteIfExists(spilled);
                spill = null;
            }
        }
    }
}
