package dev.layerfold.dedup.codec.tar;

import dev.layerfold.dedup.codec.io.FileSink;
import dev.layerfold.dedup.codec.io.LayerFormatException;
import dev.layerfold.dedup.codec.recipe.FileRef;
import dev.layerfold.dedup.codec.recipe.Skeleton;
import dev.layerfold.dedup.codec.recipe.SkeletonWriter;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Splits a tar stream, pushed in chunks of any size, into the skeleton (header blocks and
 * everything else verbatim) and file bodies (streamed to the sink, referenced by sha256).
 *
 * <p>Bytes are classified, never rewritten, so the rebuild is exact whatever the tar holds; the
 * parse only decides which bytes become references. Header blocks, PAX ({@code x}, {@code g}) and
 * GNU long-name ({@code L}, {@code K}) entries, GNU sparse extension blocks, non-zero padding and
 * everything from the first zero block on (end-of-archive, blocking padding, trailing garbage) stay
 * inline. A header with a bad checksum or an unreadable size is damage: from there on, the rest of
 * the stream becomes one opaque body, and {@link #damage()} says so. A tail after the end-of-archive
 * longer than 64 KiB becomes an opaque body too, so the recipe stays small.
 *
 * <p>Memory is bounded whatever the stream holds: an extension header larger than
 * {@value #MAX_EXTENSION_HEADER} bytes (Go's {@code archive/tar} refuses those too, so no layer a
 * container runtime can unpack has one) or headers whose skeleton outgrows
 * {@link Skeleton#MAX_COMPRESSED_OPS} fail the split with a {@link LayerFormatException}: such a
 * layer is not split and stays as it was pushed.
 */
public final class TarSplitter {

    private static final int MAX_TAIL_INLINE = 64 * 1024;
    /** Go's archive/tar maxSpecialFileSize: the most a PAX record set or GNU long name may hold. */
    static final int MAX_EXTENSION_HEADER = 1 << 20;

    private enum State { HEADER, SPARSE_EXTENSION, METADATA, BODY, PADDING, TAIL, OPAQUE }

    private final FileSink sink;
    private final SkeletonWriter skeleton;
    private final MessageDigest sha256;
    private final byte[] block = new byte[TarHeader.BLOCK];
    private State state = State.HEADER;
    private int blockFill;
    private long blockStart;
    private long offset;
    private long remaining;
    private int paddingSize;
    private long sparseBodySize;
    private OpenBody body;
    private FileRef finishedBody;
    private byte[] pax;
    private int paxFill;
    private int paxWanted;
    private OptionalLong paxSize = OptionalLong.empty();
    private final ByteArrayOutputStream tail = new ByteArrayOutputStream();
    private String damage;
    private long damageOffset;
    private int entries;

    public TarSplitter(FileSink sink, SkeletonWriter skeleton) {
        this.sink = sink;
        this.skeleton = skeleton;
        try {
            this.sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    public void write(byte[] data, int off, int len) throws IOException {
        while (len > 0) {
            int n = switch (state) {
                case HEADER, SPARSE_EXTENSION -> fillBlock(data, off, len, TarHeader.BLOCK);
                case PADDING -> fillBlock(data, off, len, paddingSize);
                case METADATA -> metadata(data, off, len);
                case BODY -> body(data, off, len);
                case TAIL -> tail(data, off, len);
                case OPAQUE -> {
                    body.write(data, off, len);
                    yield len;
                }
            };
            off += n;
            len -= n;
            offset += n;
        }
    }

    /** The stream ended; closes whatever is open, noting a truncation as damage. */
    public void finish() throws IOException {
        switch (state) {
            case HEADER, SPARSE_EXTENSION -> {
                if (blockFill > 0) {
                    noteDamage(blockStart, "the tar stream ends inside a header block");
                    skeleton.inline(block, 0, blockFill);
                }
            }
            case METADATA -> noteDamage(offset, "the tar stream ends inside an extended header");
            case BODY -> {
                noteDamage(offset, "the tar stream ends inside a file body");
                skeleton.file(body.complete(), false);
            }
            case PADDING -> {
                noteDamage(offset, "the tar stream ends inside the padding after a file body");
                skeleton.file(finishedBody, false);
                skeleton.inline(block, 0, blockFill);
            }
            case TAIL -> skeleton.inline(tail.toByteArray(), 0, tail.size());
            case OPAQUE -> skeleton.file(body.complete(), false);
        }
        body = null;
    }

    /** Releases an open body after the split failed for another reason (e.g. a damaged container). */
    public void abort() {
        if (body != null) {
            body.abort();
            body = null;
        }
    }

    /** Why part of the stream could not be parsed as tar, and where; empty for a well-formed tar. */
    public Optional<String> damage() {
        return Optional.ofNullable(damage).map(reason -> reason + " at offset " + damageOffset
                + (state == State.OPAQUE ? "; the remaining " + (offset - damageOffset) + " bytes are kept as one opaque body" : ""));
    }

    /** Tar entries seen, extension headers (PAX, GNU long names) not counted. */
    public int entries() {
        return entries;
    }

    private int fillBlock(byte[] data, int off, int len, int blockSize) throws IOException {
        if (blockFill == 0) {
            blockStart = offset;
        }
        int n = Math.min(len, blockSize - blockFill);
        System.arraycopy(data, off, block, blockFill, n);
        blockFill += n;
        if (blockFill == blockSize) {
            blockFill = 0;
            switch (state) {
                case HEADER -> header();
                case SPARSE_EXTENSION -> sparseExtension();
                case PADDING -> padding();
                default -> throw new IllegalStateException("no block expected in state " + state);
            }
        }
        return n;
    }

    private void header() throws IOException {
        long headerOffset = blockStart;
        if (TarHeader.isZeroBlock(block)) {
            state = State.TAIL;
            tail.write(block, 0, TarHeader.BLOCK);
            return;
        }
        if (!TarHeader.checksumMatches(block)) {
            startOpaque(headerOffset, headerOffset == 0 ? "no tar header at the start (bad checksum)" : "a tar header has a bad checksum");
            return;
        }
        long size = TarHeader.size(block);
        if (size < 0) {
            startOpaque(headerOffset, "a tar header has an unreadable size field");
            return;
        }
        byte type = TarHeader.typeflag(block);
        refuseUnboundedMemory(type, size, headerOffset);
        skeleton.inline(block, 0, TarHeader.BLOCK);
        switch (type) {
            case 'x', 'g', 'L', 'K' -> startMetadata(type == 'x', size);
            case 'S' -> {
                entries++;
                sparseBodySize = takePaxSize(size);
                if (TarHeader.gnuSparseIsExtended(block)) {
                    state = State.SPARSE_EXTENSION;
                } else {
                    startBody(sparseBodySize);
                }
            }
            // Header-only types: tar readers (Go's archive/tar among them) ignore their size field.
            case '1', '2', '3', '4', '5', '6' -> {
                entries++;
                takePaxSize(0);
            }
            default -> {
                entries++;
                startBody(takePaxSize(size));
            }
        }
    }

    /**
     * Extension headers are copied into the skeleton and PAX records parsed in memory, and every
     * header adds to the skeleton: both are capped so that a hostile layer cannot make a split hold
     * more than a bounded amount of memory.
     */
    private void refuseUnboundedMemory(byte type, long size, long headerOffset) throws LayerFormatException {
        boolean extension = type == 'x' || type == 'g' || type == 'L' || type == 'K';
        if (extension && size > MAX_EXTENSION_HEADER) {
            throw new LayerFormatException("the tar extended header (type " + TarHeader.describeType(type) + ") at offset "
                    + headerOffset + " holds " + size + " bytes, more than the " + MAX_EXTENSION_HEADER + " (1 MiB) that Go's"
                    + " archive/tar and so container runtimes read; such a layer is not split and stays as pushed");
        }
        if (skeleton.compressedSize() > Skeleton.MAX_COMPRESSED_OPS) {
            throw new LayerFormatException("the tar headers before offset " + headerOffset + " (" + entries + " entries) make a"
                    + " skeleton larger than " + Skeleton.MAX_COMPRESSED_OPS + " bytes compressed, far beyond a real layer's;"
                    + " such a layer is not split and stays as pushed");
        }
    }

    private long takePaxSize(long headerSize) {
        long size = paxSize.orElse(headerSize);
        paxSize = OptionalLong.empty();
        return size;
    }

    private void sparseExtension() throws IOException {
        skeleton.inline(block, 0, TarHeader.BLOCK);
        if (block[TarHeader.GNU_SPARSE_EXT_IS_EXTENDED_OFFSET] == 0) {
            startBody(sparseBodySize);
        }
    }

    private void startMetadata(boolean isPax, long size) {
        remaining = padded(size);
        paxWanted = isPax ? (int) size : 0;
        pax = paxWanted > 0 ? new byte[paxWanted] : null;
        paxFill = 0;
        state = remaining > 0 ? State.METADATA : State.HEADER;
    }

    private int metadata(byte[] data, int off, int len) {
        int n = (int) Math.min(len, remaining);
        skeleton.inline(data, off, n);
        int forPax = Math.min(n, paxWanted - paxFill);
        if (forPax > 0) {
            System.arraycopy(data, off, pax, paxFill, forPax);
            paxFill += forPax;
        }
        remaining -= n;
        if (remaining == 0) {
            if (pax != null) {
                paxSize = PaxSize.find(pax, paxFill);
                pax = null;
            }
            state = State.HEADER;
        }
        return n;
    }

    private void startBody(long size) throws IOException {
        if (size == 0) {
            state = State.HEADER;
            return;
        }
        body = new OpenBody(sink, sha256, size);
        remaining = size;
        paddingSize = (int) (padded(size) - size);
        state = State.BODY;
    }

    private int body(byte[] data, int off, int len) throws IOException {
        int n = (int) Math.min(len, remaining);
        body.write(data, off, n);
        remaining -= n;
        if (remaining == 0) {
            finishedBody = body.complete();
            body = null;
            if (paddingSize == 0) {
                skeleton.file(finishedBody, true);
                state = State.HEADER;
            } else {
                state = State.PADDING;
            }
        }
        return n;
    }

    private void padding() {
        boolean zero = true;
        for (int i = 0; i < paddingSize; i++) {
            zero &= block[i] == 0;
        }
        skeleton.file(finishedBody, zero);
        if (!zero) {
            skeleton.inline(block, 0, paddingSize);
        }
        state = State.HEADER;
    }

    private int tail(byte[] data, int off, int len) throws IOException {
        if (tail.size() + len <= MAX_TAIL_INLINE) {
            tail.write(data, off, len);
            return len;
        }
        // A long tail is not tar metadata: keep it as a body so the recipe stays small.
        body = new OpenBody(sink, sha256, -1);
        body.write(tail.toByteArray(), 0, tail.size());
        tail.reset();
        state = State.OPAQUE;
        return 0;
    }

    private void startOpaque(long at, String reason) throws IOException {
        noteDamage(at, reason);
        body = new OpenBody(sink, sha256, -1);
        body.write(block, 0, TarHeader.BLOCK);
        state = State.OPAQUE;
    }

    private void noteDamage(long at, String reason) {
        if (damage == null) {
            damage = reason;
            damageOffset = at;
        }
    }

    private static long padded(long size) {
        return (size + TarHeader.BLOCK - 1) / TarHeader.BLOCK * TarHeader.BLOCK;
    }
}
