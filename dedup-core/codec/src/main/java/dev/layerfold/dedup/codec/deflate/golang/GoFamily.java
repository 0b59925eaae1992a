package dev.layerfold.dedup.codec.deflate.golang;

import dev.layerfold.dedup.codec.container.GzipHeader;
import dev.layerfold.dedup.codec.deflate.DeflateEncoder;
import dev.layerfold.dedup.codec.deflate.VerifiedBlockSegment;
import dev.layerfold.dedup.codec.family.EncoderFamily;
import dev.layerfold.dedup.codec.family.FirstBlock;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;
import dev.layerfold.dedup.codec.recipe.RestartPoint;
import dev.layerfold.dedup.codec.restart.RestartSupport;
import dev.layerfold.dedup.codec.restart.SegmentEncoder;
import dev.layerfold.dedup.codec.restart.Segments;

import java.io.OutputStream;
import java.util.List;
import java.util.Optional;

/**
 * {@value #NAME}: Go's compress/flate of Go 1.8 to 1.26; the level (-2..9), and
 * {@value #FLUSHED_BEFORE_FINISH} for a stream sync-flushed before its end (eStargz). docker,
 * buildkit, containerd write level 6, crane, ko and kaniko level 1, eStargz level 9 flushed.
 */
public final class GoFamily implements EncoderFamily {

    public static final String NAME = "go";
    /** The {@code go} and {@code go127} parameter of a stream sync-flushed right before its end. */
    public static final int FLUSHED_BEFORE_FINISH = 1;
    /**
     * Go's levels, most likely first, in the order every Go-based family tries them: level
     * {@code LEVEL_ORDER[i]} ranks {@code 100 * i}, and Go before and since 1.27 run side by side,
     * level by level, since the header cannot tell them apart.
     */
    public static final List<Integer> LEVEL_ORDER = List.of(6, 1, 9, 2, 3, 4, 5, 7, 8, -2, 0);
    /** Where Go's level {@code LEVEL_ORDER[i]} ranks among all candidates. */
    public static final int LEVEL_RANK_STEP = 100;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<Candidate> candidates() {
        return Candidate.levels(NAME, LEVEL_ORDER, 0, LEVEL_RANK_STEP);
    }

    @Override
    public GoSpec decode(EncoderSpec spec) {
        return GoSpec.decode(spec);
    }

    @Override
    public DeflateEncoder encoder(EncoderSpec spec, OutputStream sink) {
        GoSpec go = GoSpec.decode(spec);
        return go.flushIfAsked(GoFlateEncoder.create(sink, go.level()));
    }

    /** At 16384 tokens (levels 2 to 9), after each 65535-byte window (level 1 and Huffman-only); level 0 writes stored blocks only. */
    @Override
    public boolean couldHaveWritten(EncoderSpec spec, FirstBlock first) {
        return switch (spec.level()) {
            case 0 -> false;
            case 1, -2 -> first.inputBytes() == 65535;
            default -> first.symbols() == 16384;
        };
    }

    @Override
    public int osScore(EncoderSpec spec, int os) {
        return os == GzipHeader.OS_UNKNOWN ? 2 : 0;
    }

    /** eStargz's members: Go's gzip writer flushed, then closed. */
    @Override
    public Optional<EncoderSpec> flushedBeforeFinish(EncoderSpec spec) {
        return GoSpec.read(spec).filter(go -> !go.flushedBeforeFinish()).map(go -> go.flushed().stored());
    }

    /** Go 1.27's level 0 is Go 1.26's stored blocks but for its final empty block, a fixed-Huffman one. */
    @Override
    public Optional<EncoderSpec> closedWithFixedBlock(EncoderSpec spec) {
        return spec.level() == 0 ? Optional.of(new EncoderSpec("go127", 0, spec.params())) : Optional.empty();
    }

    /**
     * <ul>
     *   <li>Levels 4 to 9 (docker, buildkit: level 6): a block ends after a count of tokens, at a bit
     *       the encoder decides; points lie at the first block boundary past each requested offset and
     *       carry {@link GoRestartState}'s four values. The encoder reads up to
     *       {@link GoSegmentEncoder#lookahead} bytes past a boundary before it ends the block there.</li>
     *   <li>Levels 2 and 3: the same four values (the last three always 0, 3, 0), but a resumed segment
     *       rebuilds its hash chains by a warm-up over the 256 KiB before the point, and the proof records
     *       only boundaries where a segment so resumed was seen to go on as the encoder did; the encoder
     *       reads up to 96 KiB past a boundary before it knows.</li>
     *   <li>Level 1 (crane, ko, kaniko through go-containerregistry): points lie at 65535-byte block
     *       boundaries and carry no state values; the match finder's table is rebuilt by a warm-up over the
     *       two blocks before ({@link GoFastSegmentEncoder}), and the proof records only boundaries where it
     *       matches the encoder's own.</li>
     *   <li>Levels 0 (stored) and -2 (HuffmanOnly): likewise at 65535-byte block boundaries with no state
     *       values, but each block is written from its own input alone, so a segment needs no input before
     *       its point ({@link GoStoreSegmentEncoder}) and every boundary is a point.</li>
     *   <li>Any of them flushed right before its end (eStargz's members): the flush follows all input, so
     *       points are the unflushed stream's; the last segment flushes before it closes.</li>
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
        if (GoSegmentEncoder.restartable(level)) {
            return Optional.of(RestartSupport.nearTarget(GoSegmentEncoder.history(level), GoSegmentEncoder.lookahead(level),
                    (point, end, history, offset, length, out) -> Segments.atBoundaries("Go", () -> Segments.fromStart(point)
                            ? GoSegmentEncoder.start(out, level)
                            : GoSegmentEncoder.resume(out, level, point.outputBitOffset(), GoRestartState.of(point.inputOffset(), point.state()),
                                    history, offset, length), point, end, history, offset, length, Segments.goFinish(flushed))));
        }
        if (GoFastSegmentEncoder.restartable(level)) {
            return Optional.of(RestartSupport.everyBlock(GoFastSegmentEncoder.BLOCK, GoFastSegmentEncoder.HISTORY,
                    (point, end, history, offset, length, out) -> blocks(level, flushed, point, end, history, offset, length, out)));
        }
        if (GoStoreSegmentEncoder.restartable(level)) {
            return Optional.of(RestartSupport.everyBlock(GoFastSegmentEncoder.BLOCK, GoStoreSegmentEncoder.HISTORY,
                    (point, end, history, offset, length, out) -> blocks(level, flushed, point, end, history, offset, length, out)));
        }
        return Optional.empty();
    }

    /** Level 1, 0 or -2: each block holds one 65535-byte window, and points carry no state values. */
    private static SegmentEncoder blocks(int level, boolean flushed, RestartPoint point, long end, byte[] history, int offset, int length,
                                         OutputStream out) {
        String family = "Go level " + level;
        if (!point.state().isEmpty()) {
            throw new IllegalArgumentException("a " + family + " restart point has no state values, not " + point.state());
        }
        boolean fromStart = point.inputOffset() == 0 && point.outputBitOffset() == 0;
        VerifiedBlockSegment go = GoFastSegmentEncoder.restartable(level)
                ? fromStart ? GoFastSegmentEncoder.start(out)
                        : GoFastSegmentEncoder.resume(out, point.outputBitOffset(), point.inputOffset(), history, offset, length)
                : fromStart ? GoStoreSegmentEncoder.start(out, level)
                        : GoStoreSegmentEncoder.resume(out, level, point.outputBitOffset(), point.inputOffset());
        return Segments.verified(family, go, flushed, point, end, history, offset, length, List::of);
    }
}
