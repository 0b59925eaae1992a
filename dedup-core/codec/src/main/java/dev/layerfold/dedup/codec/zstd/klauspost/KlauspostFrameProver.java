package dev.layerfold.dedup.codec.zstd.klauspost;

import dev.layerfold.dedup.codec.io.LayerRebuildException;
import dev.layerfold.dedup.codec.io.VerifyingOutput;
import dev.layerfold.dedup.codec.recipe.ZstdFrame;
import dev.layerfold.dedup.codec.recipe.ZstdRestartPoint;
import dev.layerfold.dedup.codec.zstd.encoder.FrameProver;

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
 * before the point has, the Writer's. At SpeedBestCompression a piece's encoder is instead the one a
 * restore builds from the point's index record ({@link IndexReplay}), made from the indexing the
 * pieces before it did. Where each piece starts, its patch or record and the sha256 of its bytes
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
    /** The indexing of every piece so far, at SpeedBestCompression; else null. */
    private final IndexReplay.Recorder indexing;

    /**
     * A piece: its encoder and patcher (none in the first, which is the Writer, nor at
     * SpeedBestCompression), the Writer's entropy state it started from where its warm-up left another
     * (else empty), the index record it started from at SpeedBestCompression (else empty), where it
     * starts in the content and the frame.
     */
    private record Piece(KlauspostZstdEncoder encoder, SlotPatcher patcher, byte[] entropyState, byte[] indexRecord, long start, long output) {
    }

    private KlauspostFrameProver(KlauspostSettings settings, long contentSize, long spacing, int warmUp, OutputStream sink) {
        this.settings = settings;
        this.contentSize = contentSize;
        this.spacing = spacing;
        this.warmUp = warmUp;
        this.out = new VerifyingOutput(sink);
        this.recent = new byte[2 * settings.windowSize() + CHUNK];
        piece = new Piece(KlauspostZstdEncoder.restartSegment(settings, 0, new byte[0], warmUp, recent, 0, 0, out), null, new byte[0], new byte[0],
                0, 0);
        indexing = settings.replaysIndexing() ? new IndexReplay.Recorder(settings.windowSize()) : null;
        observeIndexing();
        nextPoint = pointAfter(0);
    }

    /**
     * A prover for a frame of {@code contentSize} bytes written by {@code settings}' Writer without
     * flush points, or empty if the frame is not longer than
     * {@code spacing}, or so long that the Writer moves its table positions (past 2 GB less a few windows).
     *
     * @param warmUp how much input before each point its warm-up encodes again, whole blocks
     */
    public static Optional<KlauspostFrameProver> of(KlauspostSettings settings, long contentSize, long[] flushPoints, long spacing, int warmUp,
                                                   OutputStream sink) {
        if (flushPoints.length > 0 || contentSize <= spacing
                || contentSize > Integer.MAX_VALUE - 5L * settings.windowSize() || warmUp % settings.blockSize() != 0 || warmUp <= 0) {
            return Optional.empty();
        }
        return Optional.of(new KlauspostFrameProver(settings, contentSize, spacing, warmUp, sink));
    }

    /**
     * A prover for {@code frame}, whose restart points a restore takes ({@link #WARM_UP}), or empty if
     * it is not klauspost's or has none; at SpeedBetterCompression and SpeedBestCompression its points lie twice {@code spacing} apart ({@link #frameSpacing}).
     */
    public static Optional<KlauspostFrameProver> of(ZstdFrame.Compressed frame, long spacing, OutputStream sink) {
        if (!proves(frame, spacing)) {
            return Optional.empty();
        }
        KlauspostSettings settings = KlauspostSettings.of(frame.encoder());
        return of(settings, frame.contentSize(), frame.flushPoints(), frameSpacing(settings, spacing), WARM_UP, sink);
    }

    /** Whether {@link #of(ZstdFrame.Compressed, long, OutputStream)} gives a prover for {@code frame}. */
    public static boolean proves(ZstdFrame.Compressed frame, long spacing) {
        if (!frame.encoder().family().equals(KlauspostSettings.FAMILY)) {
            return false;
        }
        KlauspostSettings settings = KlauspostSettings.of(frame.encoder());
        return frame.checksum().length == 4 && frame.flushPoints().length == 0
                && frame.contentSize() > frameSpacing(settings, spacing) && frame.contentSize() <= Integer.MAX_VALUE - 5L * settings.windowSize();
    }

    /**
     * How far apart a frame's points lie, for layers whose points are asked {@code spacing} apart: twice
     * as far where a point's cost is set by a table larger than a piece's positions, not by the piece.
     * At SpeedBetterCompression nearly all of its long table's 2^19 buckets are marked at each point
     * (the dedup CPU grew by half with points every 4 MiB, by a sixth every 8 MiB); at
     * SpeedBestCompression each point's replay (about 100 ms for its window's 8.4 million positions)
     * costs a quarter of a 4 MiB piece's encoding (a third more dedup CPU every 4 MiB, a sixth every
     * 8 MiB; docs/design.md).
     */
    private static long frameSpacing(KlauspostSettings settings, long spacing) {
        return settings.level() == KlauspostSettings.SPEED_BETTER || settings.replaysIndexing() ? 2 * spacing : spacing;
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
        if (indexing != null) {
            startReplayedPiece();
            return;
        }
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
        piece = new Piece(encoder, new SlotPatcher(encoder.matcher, writers), entropyState, new byte[0], point, out.size());
        nextPoint = pointAfter(point);
    }

    /**
     * Ends the piece under way at the point reached and starts the next from what a restore builds from
     * the point's record, the indexing before it and the entropy state the piece leaves; where the
     * indexing in the window before the point is not one a record tells, the piece goes on instead.
     */
    private void startReplayedPiece() {
        long point = received;
        byte[] record = indexing.record((int) point, piece.encoder().entropyState());
        nextPoint = pointAfter(point);
        if (record == null || record.length > ZstdRestartPoint.MAX_PATCH) {
            return;
        }
        int history = KlauspostZstdEncoder.restartHistory(settings, point);
        KlauspostZstdEncoder encoder = KlauspostZstdEncoder.restartSegment(settings, point, record, warmUp, recent,
                (int) (point - recentStart) - history, history, out);
        endPiece();
        entropyStates++;
        piece = new Piece(encoder, null, new byte[0], record, point, out.size());
        observeIndexing();
    }

    private void observeIndexing() {
        if (indexing != null) {
            ((BestMatcher) piece.encoder().matcher).observe(indexing);
        }
    }

    private void endPiece() {
        byte[] patch = piece.indexRecord();
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
