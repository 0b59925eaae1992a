package dev.layerfold.dedup.pipeline;

import dev.layerfold.dedup.codec.recipe.FileRef;
import dev.layerfold.dedup.codec.io.FileSink;
import dev.layerfold.dedup.store.PackSpool;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.dedup.DedupIndex;
import dev.layerfold.storage.dedup.FileLocation;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Receives a layer's file bodies from the splitter and keeps the ones the registry does not store
 * yet. A body's digest is known only once it ended, so each body is buffered (in memory up to
 * {@link #MEMORY_LIMIT}, in a scratch file beyond) until then; a body seen earlier in this layer is
 * dropped. Completed bodies wait (up to {@link #PENDING_BYTES} in memory, {@link #PENDING_FILES}
 * files) until the file index is asked about all of them in one call: one lookup per file cost as
 * much CPU as a tenth of the split. Those stored already are dropped, the new ones compressed into
 * the layer's {@link PackSpool} in layer order. {@link #finish()} settles the last of them.
 *
 * <p>It also enforces the limits that make a hostile layer cost bounded time and disk: the bytes
 * a layer may inflate to, its number of files, and a deadline.
 */
final class PackingSink implements FileSink, AutoCloseable {

    /** Bodies up to this size are compressed from memory in one call; one buffer per worker. */
    static final int MEMORY_LIMIT = 1 << 20;
    /** Bodies held in memory while they wait for their lookup, at most. */
    static final int PENDING_BYTES = 4 << 20;
    /** Bodies that wait for their lookup, at most: one call of the index each. */
    static final int PENDING_FILES = 1_000;

    /** A completed body waiting for its lookup: its bytes in memory, or in a scratch file. */
    private record Pending(Digest digest, byte[] content, Path spilled, long size) {
    }

    private final DedupIndex index;
    private final PackSpool spool;
    private final Path scratch;
    private final DedupLimits limits;
    private final long inflateLimit;
    private final long deadlineNanos;
    private final Map<Digest, FileLocation> stored = new LinkedHashMap<>();
    private final Map<Digest, Pending> pending = new LinkedHashMap<>();
    private long pendingBytes;
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

    /** The split is over: looks up and spools the bodies still waiting. */
    void finish() throws IOException {
        settlePending();
    }

    /** Deletes the scratch files of bodies still waiting (the split failed). */
    @Override
    public void close() throws IOException {
        for (Pending body : pending.values()) {
            if (body.spilled() != null) {
                Files.deleteIfExists(body.spilled());
            }
        }
        pending.clear();
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

    private void await(Pending body) throws IOException {
        pending.put(body.digest(), body);
        if (body.content() != null) {
            pendingBytes += body.content().length;
        }
        if (pending.size() >= PENDING_FILES || pendingBytes >= PENDING_BYTES) {
            settlePending();
        }
    }

    /** One lookup for every waiting body; the new ones go into the spool, in the order they came. */
    private void settlePending() throws IOException {
        if (pending.isEmpty()) {
            return;
        }
        Map<Digest, FileLocation> found = index.files(pending.keySet());
        for (Pending body : pending.values()) {
            FileLocation location = found.get(body.digest());
            if (location != null) {
                stored.put(body.digest(), location);
            } else if (body.content() != null) {
                spool.add(body.digest(), body.content(), body.content().length);
            } else {
                spool.add(body.digest(), body.spilled(), body.size());
            }
            if (body.spilled() != null) {
                Files.deleteIfExists(body.spilled());
            }
        }
        pending.clear();
        pendingBytes = 0;
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
            Digest digest = Digest.parse("sha256:" + ref.sha256());
            if (spool.contains(digest) || stored.containsKey(digest) || pending.containsKey(digest)) {
                discard();
                return;
            }
            if (spill == null) {
                await(new Pending(digest, Arrays.copyOf(memory, inMemory), null, inMemory));
                inMemory = 0;
                return;
            }
            spill.close();
            spill = null;
            await(new Pending(digest, null, spilled, ref.size()));
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
