package dev.layerfold.dedup.store;

import com.github.luben.zstd.ZstdInputStream;
import dev.layerfold.dedup.codec.FileContentSource;
import dev.layerfold.dedup.codec.HeapFileBody;
import dev.layerfold.dedup.codec.recipe.FileRef;
import dev.layerfold.dedup.codec.io.LayerRebuildException;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.dedup.DedupIndex;
import dev.layerfold.storage.dedup.FileLocation;
import dev.layerfold.storage.dedup.LayerRecordFiles;
import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads stored files back from their packs: the compressed frame by a ranged read, decompressed,
 * and checked against the file's sha256 and size. Every stored byte is verified when read, because
 * a file's digest is its name: one by one ({@link #open}), or, for a rebuild, all at once by the
 * digest of what they make ({@link #forProof}, {@link #openAsStored}), which a damaged byte changes
 * as surely (every encoder is lossless) for one hash of the output instead of one per file.
 * Thread-safe.
 */
public final class StoredFiles implements LayerRecordFiles {

    private final BlobStore blobs;

    public StoredFiles(BlobStore blobs) {
        this.blobs = blobs;
    }

    /** The files of one layer, located by its record, for {@link dev.layerfold.dedup.codec.LayerRebuilder}. */
    public FileContentSource of(LayerRecord record) {
        return ref -> open(ref, record.location(ref));
    }

    /**
     * The files of one layer for the dedup worker's proof, read on the calling thread in the order a
     * rebuild asks for them: adjacent small files in one ranged read each ({@link FrameRun}), large
     * ones streamed. Unlike {@link #of}, the files are not hashed one by one: the proof compares the
     * rebuilt layer's sha256 with the layer's digest, which covers every byte of every file at its
     * place, and what it reads are the bytes as stored (the packs as written), so a damaged file fails
     * the proof all the same. Sizes are checked by the rebuilder. Not thread-safe: one per rebuild.
     */
    public FileContentSource forProof(LayerRecord record) {
        List<FileRef> order = LayerRecord.filesInOrder(record.recipe());
        return new FileContentSource() {
            private int next;
            private FrameRun run;
            private List<byte[]> contents;
            private int inRun;

            @Override
            public InputStream open(FileRef ref) throws IOException {
                if (run == null || inRun == run.refs().size()) {
                    run = null;
                    if (next >= order.size() || !order.get(next).equals(ref)) {
                        throw new IllegalStateException("files asked out of recipe order: " + ref);
                    }
                    if (ref.size() > FrameRun.SMALL_FILE) {
                        next++;
                        return openAsStored(ref, record.location(ref));
                    }
                    run = FrameRun.from(record, order, next);
                    contents = run.read(blobs);
                    next += run.refs().size();
                    inRun = 0;
                }
                if (!run.refs().get(inRun).equals(ref)) {
                    throw new IllegalStateException("files asked out of recipe order: " + ref + " where " + run.refs().get(inRun) + " was next");
                }
                return new HeapFileBody(contents.get(inRun++));
            }
        };
    }

    /**
     * Opens one file. The stream ends only after the last byte proved right; a file whose bytes
     * differ, or which is shorter or longer, fails with {@link LayerRebuildException} on the read
     * that would have ended it.
     */
    public InputStream open(FileRef ref, FileLocation location) throws IOException {
        return new Verifying(new ZstdInputStream(openFrame(ref, location)), ref);
    }

    /**
     * Opens one file decompressed but not hashed, for a rebuild whose output's digest covers it (a
     * layer's, a segment's); the rebuilder checks its size. Where such a digest failed,
     * {@link #damagedFiles} names the file.
     */
    public InputStream openAsStored(FileRef ref, FileLocation location) throws IOException {
        return new ZstdInputStream(openFrame(ref, location));
    }

    /**
     * The files of {@code record} that do not read back as their digest and size say, each read
     * whole and hashed: what an operator needs once a rebuild's digest failed.
     */
    public List<FileRef> damagedFiles(LayerRecord record) {
        List<FileRef> damaged = new ArrayList<>();
        for (FileRef ref : new LinkedHashSet<>(LayerRecord.filesInOrder(record.recipe()))) {
            try (InputStream in = open(ref, record.location(ref))) {
                in.transferTo(OutputStream.nullOutputStream());
            } catch (IOException e) {
                damaged.add(ref);
            }
        }
        return damaged;
    }

    private InputStream openFrame(FileRef ref, FileLocation location) throws IOException {
        return blobs.open(location.pack(), location.offset(), location.length())
                .orElseThrow(() -> new LayerRebuildException("pack " + location.pack() + " holding file " + ref.sha256() + " is missing"));
    }

    /** Reads the layer record stored as blob {@code record}, checked against its digest. */
    public LayerRecord record(Digest record) throws IOException {
        return LayerRecord.read(new ByteArrayInputStream(readObject(record)));
    }

    /**
     * The record with every file where the index locates it now. A record keeps the locations its layer
     * was written with; rewriting a pack moves files by switching the index alone, and the old pack stays
     * for the collector's pack grace, so a reader that located its files before the switch still finishes.
     * A file the index no longer knows (the layer was released meanwhile) keeps the record's location.
     */
    public static LayerRecord located(LayerRecord record, DedupIndex index) throws IOException {
        Map<Digest, FileLocation> current = new HashMap<>(record.files());
        current.putAll(index.files(record.files().keySet()));
        return new LayerRecord(record.recipe(), current);
    }

    @Override
    public Map<Digest, FileLocation> files(Digest record) throws IOException {
        return record(record).files();
    }

    @Override
    public boolean isRecord(Digest object) throws IOException {
        Optional<InputStream> head = blobs.open(object, 0, LayerRecord.MAGIC_LENGTH);
        if (head.isEmpty()) {
            return false;
        }
        try (InputStream in = head.get()) {
            return LayerRecord.startsWithMagic(in.readNBytes(LayerRecord.MAGIC_LENGTH));
        }
    }

    @Override
    public long packSize(Digest pack) throws IOException {
        return blobs.size(pack).orElseThrow(() -> new LayerRebuildException("pack " + pack + " is missing"));
    }

    /** Reads a content-addressed object whole, checking its digest. */
    private byte[] readObject(Digest digest) throws IOException {
        try (InputStream in = blobs.open(digest, 0, -1).orElseThrow(() -> new LayerRebuildException("object " + digest + " is missing"))) {
            byte[] bytes = in.readAllBytes();
            Digest actual = Digest.of(digest.algorithm(), bytes);
            if (!actual.equals(digest)) {
                throw new LayerRebuildException("object " + digest + " is damaged: its bytes hash to " + actual);
            }
            return bytes;
        }
    }

    private static final class Verifying extends FilterInputStream {
        private final FileRef ref;
        private final MessageDigest sha256 = Digest.Algorithm.SHA256.newMessageDigest();
        private long read;
        private boolean verified;

        Verifying(InputStream in, FileRef ref) {
            super(in);
            this.ref = ref;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            if (length == 0) {
                return 0;
            }
            int n = in.read(buffer, offset, length);
            if (n < 0) {
                verify();
                return -1;
            }
            sha256.update(buffer, offset, n);
            read += n;
            if (read > ref.size()) {
                throw new LayerRebuildException("stored file " + ref.sha256() + " holds more than its " + ref.size() + " bytes");
            }
            if (read == ref.size()) {
                verify();
            }
            return n;
        }

        private void verify() throws IOException {
            if (verified) {
                return;
            }
            verified = true;
            String actual = HexFormat.of().formatHex(sha256.digest());
            if (read != ref.size() || !actual.equals(ref.sha256())) {
                throw new LayerRebuildException("stored file " + ref.sha256() + " is damaged: read " + read + " bytes hashing to " + actual
                        + ", expected " + ref.size() + " bytes");
            }
        }

        @Override
        public long skip(long n) {
            throw new UnsupportedOperationException("stored files are read whole, to verify them");
        }
    }
}
