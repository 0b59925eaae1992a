package dev.layerfold.dedup.codec.deflate.klauspost;

import dev.layerfold.dedup.codec.container.GzipHeader;
import dev.layerfold.dedup.codec.deflate.DeflateEncoder;
import dev.layerfold.dedup.codec.deflate.golang.GoFamily;
import dev.layerfold.dedup.codec.deflate.golang.GoSpec;
import dev.layerfold.dedup.codec.family.EncoderFamily;
import dev.layerfold.dedup.codec.family.FirstBlock;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;
import dev.layerfold.dedup.codec.recipe.RestartPoint;
import dev.layerfold.dedup.codec.restart.RestartSupport;
import dev.layerfold.dedup.codec.restart.SegmentEncoder;
import dev.layerfold.dedup.codec.restart.Segments;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;

/**
 * {@value #NAME}: Go's compress/flate since Go 1.27 (klauspost/compress's encoder); the level
 * (-2..9), and {@value GoFamily#FLUSHED_BEFORE_FINISH} for a stream sync-flushed before its end. The
 * same tools as {@link GoFamily}, built with Go 1.27 or later; tried right after Go's same level.
 */
public final class Go127Family implements EncoderFamily {

    public static final String NAME = "go127";
    /** Go 1.27's levels 7 to 9 step over a 64 KiB window too. */
    private static final int LAZY_LOOKAHEAD = 64 * 1024;
    /** Right after Go 1.8-1.26's same level, after pgzip's where it shares its level. */
    private static final int RANK_AFTER_GO = 50;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<Candidate> candidates() {
        return Candidate.levels(NAME, GoFamily.LEVEL_ORDER, RANK_AFTER_GO, GoFamily.LEVEL_RANK_STEP);
    }

    @Override
    public GoSpec decode(EncoderSpec spec) {
        return GoSpec.decode(spec);
    }

    @Override
    public DeflateEncoder encoder(EncoderSpec spec, OutputStream sink) {
        GoSpec go = GoSpec.decode(spec);
        return go.flushIfAsked(KlauspostFlateEncoder.go127(sink, go.level()));
    }

    @Override
    public boolean couldHaveWritten(EncoderSpec spec, FirstBlock first) {
        return PgzipFamily.klauspostCouldHaveWritten(spec.level(), first);
    }

    @Override
    public int osScore(EncoderSpec spec, int os) {
        return os == GzipHeader.OS_UNKNOWN ? 2 : 0;
    }

    @Override
    public Optional<EncoderSpec> flushedBeforeFinish(EncoderSpec spec) {
        return GoSpec.read(spec).filter(go -> !go.flushedBeforeFinish()).map(go -> go.flushed().stored());
    }

    @Override
    public long inputToTellApart(EncoderSpec running, List<EncoderSpec> waiting) {
        return PgzipFamily.klauspostInputToTellApart(running, waiting);
    }

    /**
     * <ul>
     *   <li>Levels 1 to 6 (Go 1.27's default, 6, and its fast levels): points lie at 65535-byte block
     *       boundaries and carry one value, the age of the Huffman table left open; the state is rebuilt
     *       by a warm-up over the blocks before ({@link Go127SegmentEncoder}), so the history is more than
     *       a window, and the proof records only boundaries where the warm-up rebuilds the encoder's own state.</li>
     *   <li>Levels 7 to 9 (eStargz's and some tools' 9): like Go's 4 to 9, a block ends after a count of
     *       tokens and points lie at the first boundary past each requested offset that a resume can
     *       continue from; their Huffman table stays open across blocks, so a point carries
     *       {@link Go127LazyRestartState}'s eight values, the state where the block that headed its table
     *       began, and a resume encodes the blocks from there again ({@link Go127LazySegmentEncoder}).</li>
     *   <li>Levels 0 and -2: no match search. Level 0 stores 65535-byte windows, every boundary a point
     *       without state; -2 Huffman-codes 32 KiB windows and may go on with the table an earlier one
     *       opened, so a point carries that table's age and a resume replays its windows
     *       ({@link Go127StoreSegmentEncoder}); the proof records only boundaries where the replay opens
     *       the encoder's own table.</li>
     *   <li>Any of them flushed right before its end, as {@link GoFamily}'s.</li>
     * </ul>
     */
    @Override
    public Optional<RestartSupport> restart(EncoderSpec spec) {
        Optional<GoSpec> go = GoSpec.read(spec);
        if (go.isEmpty()) {
            return Optional.empty();
        }
        int level = go.get().level();
        boolean flushed = go.get().flushedBeforeFinish();
        if (Go127SegmentEncoder.restartable(level)) {
            return Optional.of(RestartSupport.everyBlock(Go127SegmentEncoder.BLOCK, Go127SegmentEncoder.HISTORY,
                    (point, end, history, offset, length, out) -> fast(level, flushed, point, end, history, offset, length, out)));
        }
        if (Go127LazySegmentEncoder.restartable(level)) {
            return Optional.of(RestartSupport.nearTarget(Go127LazySegmentEncoder.HISTORY, LAZY_LOOKAHEAD,
                    (point, end, history, offset, length, out) -> Segments.atBoundaries("Go 1.27", () -> Segments.fromStart(point)
                            ? Go127LazySegmentEncoder.start(out, level)
                            : Go127LazySegmentEncoder.resume(out, level, point.outputBitOffset(),
                                    Go127LazyRestartState.of(point.inputOffset(), point.state()), history, offset, length),
                            point, end, history, offset, length, Segments.goFinish(flushed))));
        }
        if (Go127StoreSegmentEncoder.restartable(level)) {
            return Optional.of(RestartSupport.everyBlock(Go127StoreSegmentEncoder.block(level), Go127StoreSegmentEncoder.history(level),
                    (point, end, history, offset, length, out) -> store(level, flushed, point, end, history, offset, length, out)));
        }
        return Optional.empty();
    }

    private static SegmentEncoder fast(int level, boolean flushed, RestartPoint point, long end, byte[] history, int offset, int length,
                                       OutputStream out) {
        Go127SegmentEncoder go;
        try {
            go = Segments.fromStart(point)
                    ? Go127SegmentEncoder.start(out, level)
                    : Go127SegmentEncoder.resume(out, level, point.outputBitOffset(), point.inputOffset(), tableAge(point), history, offset, length);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Segments.verified("Go 1.27", go, flushed, point, end, history, offset, length, () -> List.of(go.tableAge()));
    }

    /** Level 0 (no state values) or -2 (one: the open table's age in windows). */
    private static SegmentEncoder store(int level, boolean flushed, RestartPoint point, long end, byte[] history, int offset, int length,
                                        OutputStream out) {
        boolean stored = level == 0;
        if (stored && !point.state().isEmpty()) {
            throw new IllegalArgumentException("a Go 1.27 level 0 restart point has no state values, not " + point.state());
        }
        Go127StoreSegmentEncoder go;
        try {
            go = Segments.fromStart(point)
                    ? Go127StoreSegmentEncoder.start(out, level)
                    : Go127StoreSegmentEncoder.resume(out, level, point.outputBitOffset(), point.inputOffset(), stored ? 0 : tableAge(point),
                            history, offset, length);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Segments.verified("Go 1.27 level " + level, go, flushed, point, end, history, offset, length,
                () -> stored ? List.of() : List.of(go.tableAge()));
    }

    private static int tableAge(RestartPoint point) {
        if (point.state().size() != 1) {
            throw new IllegalArgumentException("a Go 1.27 restart point has one state value (its table's age), not " + point.state());
        }
        return point.state().getFirst();
    }
}
