package dev.layerfold.dedup.codec.zstd.klauspost;

import dev.layerfold.dedup.codec.LayerRebuildException;
import dev.layerfold.dedup.codec.VerifyingOutput;
import dev.layerfold.dedup.codec.recipe.ZstdFrame;
import dev.layerfold.dedup.codec.recipe.ZstdRestartPoint;
import dev.layerfold.dedup.codec.zstd.FrameProver;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Writes a klauspost/compress/zstd frame (no flush points) the way a restore from restart points
 * would, on the caller's thread: in pieces from block boundaries about {@code spacing} bytes of
 * content apart, each encoded by a fresh encoder ({@link KlauspostZstdEncoder#restartSegment}) from a
 * warm-up over the input before it, with the match-table slots the piece reads before writing them
 * patched to the Writer's where the warm-up left them otherwise ({@link SlotPatcher}), and, where the
 * warm-up left another entropy state (Huffman code, sequence tables) than the Writer's, which the piece
 * before the point has, the Writer's. Where each piece starts, its patch and the sha256 of its bytes
 * are recorded as candidate restart points, which hold once whoever checks the bytes written found
 * them the original's. The frame's checksum is computed over all of the content. Not thread-safe.
 */
public final class KlauspostFrameProver implements FrameProver {

    /**
     * How much input before a point its warm-up encodes again: what a restore from a recorded point
     * does. 256 KiB costs a segment of 4 MiB about a sixteenth more; 1 MiB, which leaves fewer slots
     * to patch, a quarter (docs/design.md).
     */
    public static final int WARM_UP = 256 << 10;
    private static final int CHUNK = 64 * 1024;

    private final KlauspostSettings settings;
    private final long spacing;
    private final int warmUp;
    private final long contentSize;
    /** The frame's bytes as they go out: counted, and the digest of the piece under way. */
    private final VerifyingOutput out;
    private final XxHash64 checksum = new XxHash64();
    /** The input received last: at least the window's worth before the next candidate point. */
    private final byte[] recent;
    private int recentLength;
    private long recentStart;
    private long received;
    private final List<ZstdRestartPoint> candidates = new ArrayList<>();
    private Piece piece;
    private long nextPoint;
    private int entropyStates;

    /**
     * A piece: its encoder and patcher (none in the first, which is the Writer), the Writer's entropy
     * state it started from where its warm-up left another (else empty), where it starts in the content and the frame.
     */
    private record Piece(KlauspostZstdEncoder encoder, SlotPatcher patcher, byte[] entropyState, long start, long output) {
    }

    private KlauspostFrameProver(KlauspostSettings settings, long contentSize, long spacing, int warmUp, OutputStream sink) {
        this.settings = settings;
        this.contentSize = contentSize;
        this.spacing = spacing;
        this.warmUp = warmUp;
        this.out = new VerifyingOutput(sink);
        this.recent = new byte[2 * settings.windowSize() + CHUNK];
        piece = new Piece(KlauspostZstdEncoder.restartSegment(settings, 0, new byte[0], warmUp, recent, 0, 0, out), null, new byte[0], 0, 0);
        nextPoint = pointAfter(0);
    }

    /**
     * A prover for a frame of {@code contentSize} bytes written by {@code settings}' Writer without
     * flush points, or empty if its level cannot be resumed ({@link KlauspostSettings#resumable}) or the frame is not longer than
     * {@code spacing}, or so long that the Writer moves its table positions (past 2 GB less a few windows).
     *
     * @param warmUp how much input before each point its warm-up encodes again, whole blocks
     */
    public static Optional<KlauspostFrameProver> of(KlauspostSettings settings, long contentSize, long[] flushPoints, long spacing, int warmUp,
                                                   OutputStream sink) {
        if (!settings.resumable() || flushPoints.length > 0 || contentSize <= spacing
                || contentSize > Integer.MAX_VALUE - 5L * settings.windowSize() || warmUp % settings.blockSize() != 0 || warmUp <= 0) {
            return Optional.empty();
        }
        return Optional.of(new KlauspostFrameProver(settings, contentSize, spacing, warmUp, sink));
    }

    /**
     * A prover for {@code frame}, whose restart points a restore takes ({@link #WARM_UP}), or empty if
     * it is not klauspost's or has none.
     */
    public static Optional<KlauspostFrameProver> of(ZstdFrame.Compressed frame, long spacing, OutputStream sink) {
        return proves(frame, spacing) ? of(KlauspostSettings.of(frame.encoder()), frame.contentSize(), frame.flushPoints(), spacing, WARM_UP, sink)
                : Optional.empty();
    }

    /** Whether {@link #of(ZstdFrame.Compressed, long, OutputStream)} gives a prover for {@code frame}. */
    public static boolean proves(ZstdFrame.Compressed frame, long spacing) {
        return frame.encoder().family().equals(KlauspostSettings.FAMILY) && frame.checksum().length == 4
                && KlauspostSettings.of(frame.encoder()).hasRestartPoints() && frame.flushPoints().length == 0 && frame.contentSize() > spacing
                && frame.contentSize() <= Integer.MAX_VALUE - 5L * KlauspostSettings.of(frame.encoder()).windowSize();
    }

    @Override
    public void write(byte[] data, int offset, int length) throws IOException {
        checksum.update(data, offset, length);
        while (length > 0) {
            int n = (int) Math.min(Math.min(length, CHUNK), nextPoint - received);
            remember(data, offset, n);
            piece.encoder().write(data, offset, n);
            received += n;
            offset += n;
            length -= n;
            if (received == nextPoint) {
                try {
                    startPiece();
                } catch (IllegalStateException e) {
                    throw new LayerRebuildException("the proof of zstd restart points at content offset " + received + " failed: " + e.getMessage(), e);
                }
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
        piece.encoder().finish();
        endPiece();
        out.write(checksum.frameChecksum());
    }

    @Override
    public void close() {
        piece.encoder().close();
    }

    /** The frame's candidate restart points, its start first; they hold once the frame's bytes proved the original's. */
    @Override
    public List<ZstdRestartPoint> candidates() {
        return List.copyOf(candidates);
    }

    /** How many of the points carry the Writer's entropy state, their warm-up having left another. */
    public int entropyStates() {
        return entropyStates;
    }

    /** Ends the piece under way at the point reached and starts the next from its warm-up, with the Writer's tables and entropy state. */
    private void startPiece() {
        long point = received;
        int history = KlauspostZstdEncoder.restartHistory(settings, point);
        KlauspostZstdEncoder encoder = KlauspostZstdEncoder.resumedSegment(settings, recent, (int) (point - recentStart) - history, history,
                (int) Math.min(warmUp, point), point - history, out);
        byte[] entropyState = new byte[0];
        if (!encoder.sameEntropyState(piece.encoder())) {
            entropyState = piece.encoder().entropyState();
            encoder.setEntropyState(entropyState);
            entropyStates++;
        }
        endPiece();
        long[][] writers = piece.patcher() == null ? SlotPatcher.takeTables(piece.encoder().matcher) : piece.patcher().writersTables();
        piece = new Piece(encoder, new SlotPatcher(encoder.matcher, writers), entropyState, point, out.size());
        nextPoint = pointAfter(point);
    }

    private void endPiece() {
        byte[] patch = new byte[0];
        if (piece.patcher() != null) {
            patch = piece.patcher().patch(piece.entropyState());
        }
        candidates.add(new ZstdRestartPoint(piece.start(), piece.output(), patch, out.sha256SinceLast()));
    }

    /** The first block boundary {@link #spacing} or more past {@code point} with content after it; none past the frame's end. */
    private long pointAfter(long point) {
        int block = settings.blockSize();
        long candidate = (point + spacing + block - 1) / block * block;
        return candidate < contentSize ? candidate : Long.MAX_VALUE;
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
}
