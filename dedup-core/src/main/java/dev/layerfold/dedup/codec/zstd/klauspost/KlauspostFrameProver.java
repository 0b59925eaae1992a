package dev.layerfold.dedup.codec.zstd.klauspost;

import dev.layerfold.dedup.codec.recipe.ZstdFrame;
import dev.layerfold.dedup.codec.recipe.ZstdRestartPoint;
import dev.layerfold.dedup.codec.zstd.ZstdEncoder;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Writes a klauspost/compress/zstd frame (no flush points) the way a restore from restart points
 * would, on the caller's thread: in pieces from block boundaries about {@code spacing} bytes of
 * content apart, each encoded by a fresh encoder ({@link KlauspostZstdEncoder#restartSegment}) from a
 * warm-up over the input before it, with the match-table slots the piece reads before writing them
 * patched to the Writer's where the warm-up left them otherwise ({@link SlotPatcher}). The patch is
 * written a block before the point, so that the warm-up's last block follows the Writer's path and
 * leaves its entropy state (Huffman code, sequence tables); where it still leaves another than the
 * Writer's (which the piece before the point has), the point moves a block on, up to
 * {@link SlotPatch#MAX_LEAD} blocks after the patch. Where each piece starts, its patch and the sha256
 * of its bytes are recorded as candidate restart points, which hold once whoever checks the bytes
 * written found them the original's. The frame's checksum is computed over all of the content.
 * Not thread-safe.
 */
public final class KlauspostFrameProver implements ZstdEncoder {

    /**
     * How much input before the patch's place its warm-up encodes again: what a restore from a recorded
     * point does. 256 KiB costs a segment of 4 MiB about a sixteenth more; 1 MiB, which leaves fewer
     * slots to patch, a quarter (docs/design.md).
     */
    public static final int WARM_UP = 256 << 10;
    /** How many blocks before a point its patch is first tried. */
    public static final int LEAD = 1;
    private static final int CHUNK = 64 * 1024;

    private final KlauspostSettings settings;
    private final long spacing;
    private final int warmUp;
    private final int lead;
    private final long contentSize;
    private final SegmentOutput out;
    private final XxHash64 checksum = new XxHash64();
    /** The input received last: at least the window's worth before the next patch's place. */
    private final byte[] recent;
    private int recentLength;
    private long recentStart;
    private long received;
    private final List<ZstdRestartPoint> candidates = new ArrayList<>();
    private Piece piece;
    /** The next piece, from its patch's place on, until its entropy state is the Writer's at a block boundary. */
    private Piece next;
    /** Where the next piece's patch is written, then where it is next compared. */
    private long nextStep;
    private int passedOver;
    private int abandoned;

    /** A piece: its encoder and patcher (none in the first, which is the Writer), where it is patched and where its output starts. */
    private record Piece(KlauspostZstdEncoder encoder, SlotPatcher patcher, long patched, long start, long output) {
    }

    private KlauspostFrameProver(KlauspostSettings settings, long contentSize, long spacing, int warmUp, int lead, OutputStream sink)
            throws IOException {
        this.settings = settings;
        this.contentSize = contentSize;
        this.spacing = spacing;
        this.warmUp = warmUp;
        this.lead = lead;
        this.out = new SegmentOutput(sink);
        this.recent = new byte[2 * settings.windowSize() + CHUNK];
        KlauspostZstdEncoder first = KlauspostZstdEncoder.restartSegment(settings, 0, new byte[0], warmUp, recent, 0, 0, out);
        piece = new Piece(first, null, 0, 0, 0);
        nextStep = patchPlace(0);
    }

    /**
     * A prover for a frame of {@code contentSize} bytes written by {@code settings}' Writer without
     * flush points, or empty if its level has no restart points or the frame is not longer than
     * {@code spacing}, or so long that the Writer moves its table positions (past 2 GB less a few windows).
     *
     * @param warmUp how much input before each patch's place its warm-up encodes again, whole blocks
     * @param lead   how many blocks before a point its patch is first tried
     */
    public static Optional<KlauspostFrameProver> of(KlauspostSettings settings, long contentSize, long[] flushPoints, long spacing, int warmUp,
                                                   int lead, OutputStream sink) throws IOException {
        if (!settings.hasRestartPoints() || flushPoints.length > 0 || contentSize <= spacing
                || contentSize > Integer.MAX_VALUE - 5L * settings.windowSize() || warmUp % settings.blockSize() != 0 || warmUp <= 0
                || lead < 1 || lead > SlotPatch.MAX_LEAD || (long) lead * settings.blockSize() >= spacing) {
            return Optional.empty();
        }
        return Optional.of(new KlauspostFrameProver(settings, contentSize, spacing, warmUp, lead, sink));
    }

    /**
     * A prover for {@code frame}, whose restart points a restore takes ({@link #WARM_UP}), or empty if
     * it is not klauspost's or has none.
     */
    public static Optional<KlauspostFrameProver> of(ZstdFrame.Compressed frame, long spacing, OutputStream sink) throws IOException {
        return frame.encoder().family().equals(KlauspostSettings.FAMILY) && frame.checksum().length == 4
                ? of(KlauspostSettings.of(frame.encoder()), frame.contentSize(), frame.flushPoints(), spacing, WARM_UP, LEAD, sink)
                : Optional.empty();
    }

    @Override
    public void write(byte[] data, int offset, int length) throws IOException {
        checksum.update(data, offset, length);
        while (length > 0) {
            int n = (int) Math.min(Math.min(length, CHUNK), nextStep - received);
            remember(data, offset, n);
            piece.encoder().write(data, offset, n);
            if (next != null) {
                next.encoder().write(data, offset, n);
            }
            received += n;
            offset += n;
            length -= n;
            if (received == nextStep) {
                step();
            }
        }
    }

    @Override
    public void drain() {
        // every full block went to the sink as it was made
    }

    @Override
    public void finish() throws IOException {
        if (received != contentSize) {
            throw new IllegalStateException("the frame has " + contentSize + " bytes of content, " + received + " were written");
        }
        if (next != null) {
            next.patcher().detach();
            next = null;
        }
        piece.encoder().finish();
        endPiece();
        long digest = checksum.digest();
        out.write(new byte[] {(byte) digest, (byte) (digest >>> 8), (byte) (digest >>> 16), (byte) (digest >>> 24)});
    }

    @Override
    public void close() {
        piece.encoder().close();
    }

    /** The frame's candidate restart points, its start first; they hold once the frame's bytes proved the original's. */
    public List<ZstdRestartPoint> candidates() {
        return List.copyOf(candidates);
    }

    /** How many block boundaries a point moved past as the next piece's entropy state was not yet the Writer's there. */
    public int passedOver() {
        return passedOver;
    }

    /** How many next pieces were given up, their entropy state not the Writer's within {@link SlotPatch#MAX_LEAD} blocks. */
    public int abandoned() {
        return abandoned;
    }

    /** At the next piece's patch place: starts it; at a block boundary after: makes it the piece if its entropy state is the Writer's. */
    private void step() throws IOException {
        long at = received;
        if (next == null) {
            int history = (int) Math.min(settings.windowSize(), at);
            KlauspostZstdEncoder encoder = KlauspostZstdEncoder.resumedSegment(settings, recent, (int) (at - recentStart) - history, history,
                    (int) Math.min(warmUp, at), at - history, OutputStream.nullOutputStream());
            long[][] writers = piece.patcher() == null ? SlotPatcher.tablesOf(piece.encoder().matcher) : piece.patcher().writersTables();
            next = new Piece(encoder, new SlotPatcher(encoder.matcher, writers), at, 0, 0);
            nextStep = at + (long) lead * settings.blockSize();
            return;
        }
        if (next.encoder().sameEntropyState(piece.encoder())) {
            endPiece();
            next.encoder().redirect(out);
            piece = new Piece(next.encoder(), next.patcher(), next.patched(), at, out.count);
            next = null;
            nextStep = patchPlace(at);
            return;
        }
        long blocks = (at - next.patched()) / settings.blockSize();
        if (blocks < SlotPatch.MAX_LEAD && at + settings.blockSize() < contentSize) {
            passedOver++;
            nextStep = at + settings.blockSize();
            return;
        }
        abandoned++;
        next.patcher().detach();
        next = null;
        nextStep = patchPlace(at);
    }

    private void endPiece() {
        byte[] patch = new byte[0];
        if (piece.patcher() != null) {
            patch = piece.patcher().patch((int) ((piece.start() - piece.patched()) / settings.blockSize()));
            piece.patcher().detach();
        }
        candidates.add(new ZstdRestartPoint(piece.start(), piece.output(), patch, out.segmentDigest()));
    }

    /** Where the patch of a point {@link #spacing} or more past {@code point} is written, {@link #lead} blocks before it; none past the frame's end. */
    private long patchPlace(long point) {
        int block = settings.blockSize();
        long candidate = (point + spacing + block - 1) / block * block;
        return candidate < contentSize ? candidate - (long) lead * block : Long.MAX_VALUE;
    }

    /** Appends to {@link #recent}, dropping all but its last window's worth when full. */
    private void remember(byte[] data, int offset, int n) {
        if (recentLength + n > recent.length) {
            int drop = recentLength - settings.windowSize();
            System.arraycopy(recent, drop, recent, 0, recentLength - drop);
            recentLength -= drop;
            recentStart += drop;
        }
        System.arraycopy(data, offset, recent, recentLength, n);
        recentLength += n;
    }

    /** The frame's bytes as they go out: counted, and the digest of the piece under way. */
    private static final class SegmentOutput extends FilterOutputStream {
        private final MessageDigest sha256;
        private long count;

        SegmentOutput(OutputStream out) {
            super(out);
            try {
                sha256 = MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("every Java platform has SHA-256", e);
            }
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] data, int offset, int length) throws IOException {
            sha256.update(data, offset, length);
            out.write(data, offset, length);
            count += length;
        }

        byte[] segmentDigest() {
            return sha256.digest();
        }
    }
}
