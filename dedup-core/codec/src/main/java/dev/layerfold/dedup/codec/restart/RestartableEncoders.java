package dev.layerfold.dedup.codec.restart;

import dev.layerfold.dedup.codec.CountingOutput;
import dev.layerfold.dedup.codec.LayerRebuildException;
import dev.layerfold.dedup.codec.deflate.BoundarySegment;
import dev.layerfold.dedup.codec.deflate.FlushableSegment;
import dev.layerfold.dedup.codec.deflate.VerifiedBlockSegment;
import dev.layerfold.dedup.codec.deflate.golang.GoFastSegmentEncoder;
import dev.layerfold.dedup.codec.deflate.golang.GoRestartState;
import dev.layerfold.dedup.codec.deflate.golang.GoSegmentEncoder;
import dev.layerfold.dedup.codec.deflate.golang.GoStoreSegmentEncoder;
import dev.layerfold.dedup.codec.deflate.klauspost.Go127LazyRestartState;
import dev.layerfold.dedup.codec.deflate.klauspost.Go127LazySegmentEncoder;
import dev.layerfold.dedup.codec.deflate.klauspost.Go127SegmentEncoder;
import dev.layerfold.dedup.codec.deflate.klauspost.Go127StoreSegmentEncoder;
import dev.layerfold.dedup.codec.deflate.klauspost.PgzipEncoder;
import dev.layerfold.dedup.codec.deflate.pigz.PigzEncoder;
import dev.layerfold.dedup.codec.deflate.pigz.PigzSettings;
import dev.layerfold.dedup.codec.deflate.zlib.LazyRestartState;
import dev.layerfold.dedup.codec.deflate.zlib.LazySegmentEncoder;
import dev.layerfold.dedup.codec.deflate.zlib.ZlibEncoder;
import dev.layerfold.dedup.codec.deflate.zlib.ZlibFlush;
import dev.layerfold.dedup.codec.identify.StandardEncoders;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;
import dev.layerfold.dedup.codec.recipe.RestartPoint;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The encoder families whose state at some block boundaries can be rebuilt from the input before
 * them, and where those boundaries may lie. A family missing here has no restart points: its
 * members are encoded in one piece, as before. That a rebuilt state really reproduces the original
 * is never assumed: the proof ({@link ProvingMember}) checks every point against the layer's digest.
 *
 * <ul>
 *   <li>{@code pigz} (several threads, the default code path): every block is compressed from a
 *       reset stream with the previous 32 KiB as dictionary and ends on a byte boundary; points lie
 *       at block boundaries and need no state values. {@code pgzip} likewise, with 16 KiB.</li>
 *   <li>{@code go} levels 4 to 9 (docker, buildkit: level 6): a block ends after a count of tokens,
 *       at a bit the encoder decides; points lie at the first block boundary past each requested
 *       offset and carry {@link GoRestartState}'s four values. The encoder reads up to
 *       {@link #lookahead} bytes past a boundary before it ends the block there.</li>
 *   <li>{@code go} levels 2 and 3: the same four values (the last three always 0, 3, 0), but, as
 *       zlib's levels 1 to 3 below, a resumed segment rebuilds its hash chains by a warm-up over the
 *       256 KiB before the point, and the proof records only boundaries where a segment so resumed
 *       was seen to go on as the encoder did; the encoder reads up to 96 KiB past a boundary before it knows.</li>
 *   <li>{@code go} level 1 (crane, ko, kaniko through go-containerregistry): points lie at 65535-byte
 *       block boundaries and carry no state values; the match finder's table is rebuilt by a warm-up
 *       over the two blocks before ({@link GoFastSegmentEncoder}), and the proof records only
 *       boundaries where it matches the encoder's own.</li>
 *   <li>{@code go} levels 0 (stored) and -2 (HuffmanOnly): likewise at 65535-byte block boundaries
 *       with no state values, but each block is written from its own input alone, with no match
 *       search, so a segment needs no input before its point ({@link GoStoreSegmentEncoder}) and
 *       every boundary is a point.</li>
 *   <li>{@code zlib} levels 4 to 9 with zlib's defaults (Python, Java, most tools linking zlib) and
 *       GNU {@code gzip} 4 to 9 (scripts): likewise, a block ends when the symbol buffer fills (or
 *       where GNU gzip guesses ending pays); points carry {@link LazyRestartState}'s four values, and
 *       the encoder reads up to its 64 KiB window past a boundary.</li>
 *   <li>{@code zlib} levels 1 to 3 with zlib's defaults (deflate_fast: Python's {@code gzip.compress(data, 1)})
 *       and GNU {@code gzip} 1 to 3 ({@code gzip -1}): the same four values, but a resumed segment
 *       rebuilds its hash chains by a warm-up over the 256 KiB before the point ({@link #history}), and
 *       the proof records only boundaries where a segment so resumed was seen to go on as the encoder
 *       did; the encoder reads up to 96 KiB past a boundary before it knows.</li>
 *   <li>{@code go127} levels 1 to 6 (Go 1.27's default, 6, and its fast levels): points lie at
 *       65535-byte block boundaries and carry one value, the age of the Huffman table left open;
 *       the state is rebuilt by a warm-up over the blocks before ({@link Go127SegmentEncoder}), so
 *       {@link #history} is more than a window, and the proof records only boundaries where the
 *       warm-up rebuilds the encoder's own state.</li>
 *   <li>{@code go127} levels 7 to 9 (eStargz's and some tools' 9): like Go's 4 to 9, a block ends
 *       after a count of tokens and points lie at the first boundary past each requested offset
 *       that a resume can continue from; their Huffman table stays open across blocks, so a point
 *       carries {@link Go127LazyRestartState}'s eight values, the state where the block that
 *       headed its table began, and a resume encodes the blocks from there again
 *       ({@link Go127LazySegmentEncoder}): {@link #history} covers them.</li>
 *   <li>{@code pigz} in one thread ({@code -p 1}) at levels 4 to 9: one zlib stream, but every block ends
 *       with Z_BLOCK and is padded to a byte, which leaves zlib nothing pending; points lie at block
 *       boundaries, byte aligned, and carry {@link LazyRestartState}'s four values (the last three always
 *       0, 2, 0), the chains rebuilt from 32 KiB ({@link PigzEncoder#resumeStream}).</li>
 *   <li>{@code go127} levels 0 and -2: no match search. Level 0 stores 65535-byte windows, every boundary a
 *       point without state; -2 Huffman-codes 32 KiB windows and may go on with the table an earlier one
 *       opened, so a point carries that table's age and a resume replays its windows
 *       ({@link Go127StoreSegmentEncoder}); the proof records only boundaries where the replay opens the
 *       encoder's own table.</li>
 *   <li>Any {@code go} or {@code go127} level above, flushed right before its end (eStargz's members):
 *       the flush follows all input, so points are the unflushed stream's; the last segment flushes
 *       before it closes ({@link FlushableSegment}).</li>
 *   <li>{@code zlib} level 0, as the codec reproduces it (one deflate() call with all the input and room
 *       for all the output): 65535-byte stored blocks, every boundary a point without state or history.</li>
 * </ul>
 * zlib with other than its default memLevel, window or strategy (which no candidate names) has none.
 */
public final class RestartableEncoders {

    /** The input between two points the finder aims at: a few MB, so a 32 MB layer has enough segments for several cores. */
    public static final long SPACING = 4L << 20;
    /** The input before a point that a rebuilt state reads for most families: DEFLATE's window. See {@link #history}. */
    public static final int HISTORY = 32 * 1024;
    /** Go 1.27's levels 7 to 9 step over a 64 KiB window too. */
    private static final int GO127_LAZY_LOOKAHEAD = 64 * 1024;

    private RestartableEncoders() {
    }

    /** Whether members of {@code spec} can have restart points. */
    public static boolean restartable(EncoderSpec spec) {
        return spacing(spec, SPACING).isPresent();
    }

    /**
     * How far apart points of {@code spec} lie: a multiple of its block size near {@code target}
     * (for Go, zlib and GNU gzip, the encoder ends a segment at its first block boundary at or past it), or empty if
     * the family has no restart points.
     */
    public static Optional<Long> spacing(EncoderSpec spec, long target) {
        if (goLevel(spec).isPresent() || lazyDeflate(spec).isPresent() || go127Lazy(spec)) {
            return Optional.of(target);
        }
        Optional<Integer> block = go127Level(spec).isPresent() ? Optional.of(Go127SegmentEncoder.BLOCK)
                : go127Store(spec) ? Optional.of(Go127StoreSegmentEncoder.block(spec.level()))
                : goFast(spec) || goStore(spec) ? Optional.of(GoFastSegmentEncoder.BLOCK) : blockSize(spec);
        return block.map(size -> Math.max(1, target / size) * size);
    }

    /**
     * How much of the member's input before a point (or all of it, nearer the start) a segment
     * opened there must be given: {@link #HISTORY}, or more for a family that rebuilds its state
     * by a warm-up over the input before it.
     */
    public static int history(EncoderSpec spec) {
        if (goLevel(spec).isPresent()) {
            return GoSegmentEncoder.history(spec.level());
        }
        if (go127Level(spec).isPresent()) {
            return Go127SegmentEncoder.HISTORY;
        }
        if (goFast(spec)) {
            return GoFastSegmentEncoder.HISTORY;
        }
        if (goStore(spec)) {
            return GoStoreSegmentEncoder.HISTORY;
        }
        if (go127Lazy(spec)) {
            return Go127LazySegmentEncoder.HISTORY;
        }
        if (go127Store(spec)) {
            return Go127StoreSegmentEncoder.history(spec.level());
        }
        return lazyDeflate(spec).isPresent() ? LazySegmentEncoder.history(spec.level()) : HISTORY;
    }

    /** How much input past a segment's end its encoder may read before it ends the segment. */
    public static int lookahead(EncoderSpec spec) {
        return goLevel(spec).isPresent() ? GoSegmentEncoder.lookahead(spec.level())
                : lazyDeflate(spec).isPresent() ? LazySegmentEncoder.lookahead(spec.level())
                : go127Lazy(spec) ? GO127_LAZY_LOOKAHEAD : 0;
    }

    /** The block size of a family whose blocks start afresh, or empty. */
    private static Optional<Integer> blockSize(EncoderSpec spec) {
        return switch (spec.family()) {
            case StandardEncoders.PIGZ -> {
                PigzSettings settings = StandardEncoders.pigzSettings(spec);
                yield !settings.singleThread() || PigzEncoder.streamResumable(settings) ? Optional.of(settings.blockSize()) : Optional.empty();
            }
            case StandardEncoders.PGZIP -> spec.params().isEmpty() ? Optional.empty() : Optional.of(spec.params().getFirst());
            case StandardEncoders.ZLIB -> spec.params().isEmpty() && spec.level() == 0 ? Optional.of(ZlibEncoder.MAX_STORED) : Optional.empty();
            default -> Optional.empty();
        };
    }

    /** Go's level if {@code spec} is Go 1.8-1.26 at a level that resumes (2 to 9), flushed before its end or not. */
    private static Optional<Integer> goLevel(EncoderSpec spec) {
        return StandardEncoders.GO.equals(spec.family()) && goParams(spec) && GoSegmentEncoder.restartable(spec.level())
                ? Optional.of(spec.level()) : Optional.empty();
    }

    /** Whether a Go or Go 1.27 {@code spec}'s params are none, or say the stream was flushed right before its end. */
    private static boolean goParams(EncoderSpec spec) {
        return spec.params().isEmpty() || flushedBeforeFinish(spec);
    }

    private static boolean flushedBeforeFinish(EncoderSpec spec) {
        return spec.params().equals(List.of(StandardEncoders.FLUSHED_BEFORE_FINISH));
    }

    /** Whether {@code spec} is Go 1.8-1.26 at level 1, flushed before its end or not. */
    private static boolean goFast(EncoderSpec spec) {
        return StandardEncoders.GO.equals(spec.family()) && goParams(spec) && GoFastSegmentEncoder.restartable(spec.level());
    }

    /** Whether {@code spec} is Go 1.8-1.26 at level 0 or -2, flushed before its end or not. */
    private static boolean goStore(EncoderSpec spec) {
        return StandardEncoders.GO.equals(spec.family()) && goParams(spec) && GoStoreSegmentEncoder.restartable(spec.level());
    }

    /** Go 1.27's level if {@code spec} is Go 1.27 at a level that resumes (1 to 6), flushed before its end or not. */
    private static Optional<Integer> go127Level(EncoderSpec spec) {
        return StandardEncoders.GO127.equals(spec.family()) && goParams(spec) && Go127SegmentEncoder.restartable(spec.level())
                ? Optional.of(spec.level()) : Optional.empty();
    }

    /** Whether {@code spec} is Go 1.27 at level 0 or -2, flushed before its end or not. */
    private static boolean go127Store(EncoderSpec spec) {
        return StandardEncoders.GO127.equals(spec.family()) && goParams(spec) && Go127StoreSegmentEncoder.restartable(spec.level());
    }

    /** Whether {@code spec} is Go 1.27 at a lazy level (7 to 9), flushed before its end or not. */
    private static boolean go127Lazy(EncoderSpec spec) {
        return StandardEncoders.GO127.equals(spec.family()) && goParams(spec) && Go127LazySegmentEncoder.restartable(spec.level());
    }

    /**
     * The lazy-matching deflate {@code spec} names if it resumes: zlib at a lazy level (4 to 9) with its
     * default memLevel, window and strategy, or GNU gzip at one.
     */
    private static Optional<LazySegmentEncoder.Deflate> lazyDeflate(EncoderSpec spec) {
        if (!spec.params().isEmpty() || !LazySegmentEncoder.restartable(spec.level())) {
            return Optional.empty();
        }
        return switch (spec.family()) {
            case StandardEncoders.ZLIB -> Optional.of(LazySegmentEncoder.Deflate.ZLIB);
            case StandardEncoders.GNU_GZIP -> Optional.of(LazySegmentEncoder.Deflate.GNU_GZIP);
            default -> Optional.empty();
        };
    }

    /**
     * An encoder for the segment that starts at {@code point}, with the state rebuilt from
     * {@code history} (the member's input before the point, at least its last {@link #history}
     * bytes) and the point's state values, ending at the first block boundary at or past input
     * offset {@code end} ({@link Long#MAX_VALUE}: at the member's end).
     *
     * @throws IllegalArgumentException if the family has no restart points or the point's state does not fit it
     */
    public static SegmentEncoder open(EncoderSpec spec, RestartPoint point, long end, byte[] history, int offset, int length, OutputStream out) {
        if (!restartable(spec)) {
            throw new IllegalArgumentException("encoder " + spec + " has no restart points");
        }
        boolean flushed = flushedBeforeFinish(spec);
        if (goLevel(spec).isPresent()) {
            return go(spec.level(), flushed, point, end, history, offset, length, out);
        }
        Optional<LazySegmentEncoder.Deflate> lazy = lazyDeflate(spec);
        if (lazy.isPresent()) {
            return lazy(lazy.get(), spec.level(), point, end, history, offset, length, out);
        }
        if (goFast(spec) || goStore(spec)) {
            return goBlocks(spec.level(), flushed, point, end, history, offset, length, out);
        }
        if (go127Level(spec).isPresent()) {
            return go127(spec.level(), flushed, point, end, history, offset, length, out);
        }
        if (go127Lazy(spec)) {
            return go127Lazy(spec.level(), flushed, point, end, history, offset, length, out);
        }
        if (go127Store(spec)) {
            return go127Store(spec.level(), flushed, point, end, history, offset, length, out);
        }
        boolean oneStream = StandardEncoders.PIGZ.equals(spec.family()) && StandardEncoders.pigzSettings(spec).singleThread();
        if (!oneStream && !point.state().isEmpty() || point.outputBitOffset() % 8 != 0) {
            throw new IllegalArgumentException("a " + spec.family() + " restart point lies on a byte boundary and has no state values");
        }
        int block = blockSize(spec).orElseThrow();
        if (point.inputOffset() % block != 0 || end != Long.MAX_VALUE && end % block != 0) {
            throw new IllegalArgumentException("a " + spec.family() + " restart point lies on a block boundary (" + block + " bytes), not at "
                    + point.inputOffset() + " or " + end);
        }
        CountingOutput counted = new CountingOutput(out);
        return switch (spec.family()) {
            case StandardEncoders.PIGZ -> pigz(spec, point, end, history, offset, length, counted);
            case StandardEncoders.ZLIB -> zlibStored(point, end, counted);
            default -> pgzip(spec, point, end, history, offset, length, counted);
        };
    }

    private static SegmentEncoder pigz(EncoderSpec spec, RestartPoint point, long end, byte[] history, int offset, int length, CountingOutput out) {
        PigzSettings settings = StandardEncoders.pigzSettings(spec);
        PigzEncoder pigz = point.inputOffset() == 0 ? PigzEncoder.create(out, settings)
                : settings.singleThread() ? PigzEncoder.resumeStream(out, settings, LazyRestartState.of(point.inputOffset(), point.state()),
                        history, offset, length)
                : PigzEncoder.resume(out, settings, history, offset, length);
        return new BlockAligned(point.inputOffset(), point.outputBitOffset(), end, out) {
            @Override
            void encode(byte[] data, int off, int len) throws IOException {
                pigz.write(data, off, len);
            }

            @Override
            List<Integer> endBlock() throws IOException {
                pigz.endBlock();
                return settings.singleThread() ? pigz.streamBoundary().values() : List.of();
            }

            @Override
            public void finish() throws IOException {
                pigz.finish();
            }
        };
    }

    /**
     * zlib's level 0 as the codec reproduces it (one deflate() call with all the input and room for all the output):
     * stored blocks of {@link ZlibEncoder#MAX_STORED} bytes, the last marked final, so a segment is a fresh stream's.
     */
    private static SegmentEncoder zlibStored(RestartPoint point, long end, CountingOutput out) {
        ZlibEncoder zlib = ZlibEncoder.create(out, 0);
        return new BlockAligned(point.inputOffset(), point.outputBitOffset(), end, out) {
            @Override
            void encode(byte[] data, int off, int len) throws IOException {
                zlib.write(data, off, len);
            }

            @Override
            List<Integer> endBlock() throws IOException {
                zlib.flush(ZlibFlush.BLOCK);
                return List.of();
            }

            @Override
            public void finish() throws IOException {
                zlib.finish();
            }
        };
    }

    /** pgzip compresses a block as soon as it is full: at a point there is nothing left to write. */
    private static SegmentEncoder pgzip(EncoderSpec spec, RestartPoint point, long end, byte[] history, int offset, int length, CountingOutput out) {
        PgzipEncoder pgzip = PgzipEncoder.resume(out, spec.level(), spec.params().getFirst(), StandardEncoders.pgzipRelease(spec),
                history, offset, length);
        return new BlockAligned(point.inputOffset(), point.outputBitOffset(), end, out) {
            @Override
            void encode(byte[] data, int off, int len) throws IOException {
                pgzip.write(data, off, len);
            }

            @Override
            List<Integer> endBlock() {
                return List.of();
            }

            @Override
            public void finish() throws IOException {
                pgzip.finish();
            }
        };
    }

    private static SegmentEncoder go(int level, boolean flushed, RestartPoint point, long end, byte[] history, int offset, int length, OutputStream out) {
        return atBoundaries("Go", () -> fromStart(point)
                ? GoSegmentEncoder.start(out, level)
                : GoSegmentEncoder.resume(out, level, point.outputBitOffset(), GoRestartState.of(point.inputOffset(), point.state()),
                        history, offset, length), point, end, history, offset, length, goFinish(flushed));
    }

    private static SegmentEncoder lazy(LazySegmentEncoder.Deflate encoder, int level, RestartPoint point, long end, byte[] history, int offset,
                                       int length, OutputStream out) {
        return atBoundaries(encoder.toString(), () -> fromStart(point)
                ? LazySegmentEncoder.start(encoder, out, level)
                : LazySegmentEncoder.resume(encoder, out, level, point.outputBitOffset(), LazyRestartState.of(point.inputOffset(), point.state()),
                        history, offset, length), point, end, history, offset, length, BoundarySegment::finish);
    }

    private static SegmentEncoder go127(int level, boolean flushed, RestartPoint point, long end, byte[] history, int offset, int length, OutputStream out) {
        Go127SegmentEncoder go;
        try {
            go = point.inputOffset() == 0 && point.outputBitOffset() == 0 && point.state().isEmpty()
                    ? Go127SegmentEncoder.start(out, level)
                    : Go127SegmentEncoder.resume(out, level, point.outputBitOffset(), point.inputOffset(), tableAge(point), history, offset, length);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return verified("Go 1.27", go, flushed, point, end, history, offset, length, () -> List.of(go.tableAge()));
    }

    /** Go 1.27 at level 0 (no state values) or -2 (one: the open table's age in windows). */
    private static SegmentEncoder go127Store(int level, boolean flushed, RestartPoint point, long end, byte[] history, int offset, int length, OutputStream out) {
        boolean stored = level == 0;
        if (stored && !point.state().isEmpty()) {
            throw new IllegalArgumentException("a Go 1.27 level 0 restart point has no state values, not " + point.state());
        }
        Go127StoreSegmentEncoder go;
        try {
            go = point.inputOffset() == 0 && point.outputBitOffset() == 0 && point.state().isEmpty()
                    ? Go127StoreSegmentEncoder.start(out, level)
                    : Go127StoreSegmentEncoder.resume(out, level, point.outputBitOffset(), point.inputOffset(), stored ? 0 : tableAge(point),
                            history, offset, length);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return verified("Go 1.27 level " + level, go, flushed, point, end, history, offset, length,
                () -> stored ? List.of() : List.of(go.tableAge()));
    }

    private static SegmentEncoder go127Lazy(int level, boolean flushed, RestartPoint point, long end, byte[] history, int offset, int length, OutputStream out) {
        return atBoundaries("Go 1.27", () -> fromStart(point)
                ? Go127LazySegmentEncoder.start(out, level)
                : Go127LazySegmentEncoder.resume(out, level, point.outputBitOffset(), Go127LazyRestartState.of(point.inputOffset(), point.state()),
                        history, offset, length), point, end, history, offset, length, goFinish(flushed));
    }

    private static boolean fromStart(RestartPoint point) {
        return point.inputOffset() == 0 && point.outputBitOffset() == 0 && point.state().isEmpty();
    }

    /** Opens a segment of a family that records its state at block boundaries; an IOException is its resume's. */
    private interface BoundarySegmentOpener<S extends BoundarySegment> {
        S open() throws IOException;
    }

    /** How a family's last segment ends once the input has. */
    private interface SegmentFinish<S> {
        void finish(S segment) throws IOException;
    }

    /** Go's {@code Close}, after a {@code Flush} if the producer flushed the stream right before its end. */
    private static <S extends BoundarySegment & FlushableSegment> SegmentFinish<S> goFinish(boolean flushed) {
        return segment -> {
            if (flushed) {
                segment.flush();
            }
            segment.finish();
        };
    }

    /**
     * A family whose segments end at the first block boundary past {@code end} (that the proof verifies,
     * where the family checks them) and record the encoder's state there; {@code history[offset..offset+length)}:
     * the input before the point.
     */
    private static <S extends BoundarySegment> SegmentEncoder atBoundaries(String family, BoundarySegmentOpener<S> opener, RestartPoint point,
                                                                          long end, byte[] history, int offset, int length,
                                                                          SegmentFinish<S> finishing) {
        S segment;
        try {
            segment = opener.open();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (end != Long.MAX_VALUE) {
            segment.endAtBlockFrom(end);
        }
        return new SegmentEncoder() {
            @Override
            public void verifyRestartPoints() {
                segment.verifyBoundaries(history, offset, length);
            }

            @Override
            public int write(byte[] data, int off, int len) throws IOException {
                return segment.write(data, off, len);
            }

            @Override
            public boolean reachedEnd() {
                return segment.stopped().isPresent();
            }

            @Override
            public Boundary endAtRestartPoint() throws IOException {
                BoundarySegment.State next = segment.boundary().orElseThrow(() -> new LayerRebuildException(
                        "the " + family + " segment from input offset " + point.inputOffset() + " did not reach a block boundary at or past " + end
                                + " with the input given"));
                long bit = segment.bitPosition();
                segment.endSegment();
                return new Boundary(next.input(), bit, next.values());
            }

            @Override
            public void finish() throws IOException {
                finishing.finish(segment);
            }
        };
    }

    /** Go 1.8-1.26 at level 1, 0 or -2: each block holds one 65535-byte window, and points carry no state values. */
    private static SegmentEncoder goBlocks(int level, boolean flushed, RestartPoint point, long end, byte[] history, int offset, int length, OutputStream out) {
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
        return verified(family, go, flushed, point, end, history, offset, length, List::of);
    }

    /**
     * A family whose segments end at the first block boundary past {@code end} that the proof verifies; {@code state}: the next
     * point's values; {@code flushed}: the producer flushed the stream right before its end.
     */
    private static SegmentEncoder verified(String family, VerifiedBlockSegment go, boolean flushed, RestartPoint point, long end, byte[] history, int offset,
                                           int length, Supplier<List<Integer>> state) {
        if (end != Long.MAX_VALUE) {
            go.endAtBlockFrom(end);
        }
        return new SegmentEncoder() {
            @Override
            public void verifyRestartPoints() {
                go.verifyBoundaries(history, offset, length);
            }

            @Override
            public int write(byte[] data, int off, int len) throws IOException {
                return go.write(data, off, len);
            }

            @Override
            public boolean reachedEnd() {
                return go.stopped();
            }

            @Override
            public Boundary endAtRestartPoint() throws IOException {
                if (!go.stepTaken()) {
                    throw new LayerRebuildException("the " + family + " segment from input offset " + point.inputOffset()
                            + " did not reach a restart point at or past " + end + " with the input given (up to " + go.end() + ")");
                }
                long bit = go.bitPosition();
                go.endSegment();
                return new Boundary(go.end(), bit, state.get());
            }

            @Override
            public void finish() throws IOException {
                if (flushed) {
                    go.flush();
                }
                go.finish();
            }
        };
    }

    private static int tableAge(RestartPoint point) {
        if (point.state().size() != 1) {
            throw new IllegalArgumentException("a Go 1.27 restart point has one state value (its table's age), not " + point.state());
        }
        return point.state().getFirst();
    }

    /** A family whose segments end where the caller says, on a byte boundary: it takes input up to the end, no further. */
    private abstract static class BlockAligned implements SegmentEncoder {
        private final long startBit;
        private final long end;
        private final CountingOutput out;
        private long input;

        BlockAligned(long start, long startBit, long end, CountingOutput out) {
            this.input = start;
            this.startBit = startBit;
            this.end = end;
            this.out = out;
        }

        abstract void encode(byte[] data, int offset, int length) throws IOException;

        /** Ends the block under way; returns the state values of the point its end is. */
        abstract List<Integer> endBlock() throws IOException;

        @Override
        public int write(byte[] data, int offset, int length) throws IOException {
            int n = (int) Math.min(length, end - input);
            encode(data, offset, n);
            input += n;
            return n;
        }

        @Override
        public boolean reachedEnd() {
            return input == end;
        }

        @Override
        public Boundary endAtRestartPoint() throws IOException {
            if (input != end) {
                throw new LayerRebuildException("the segment ends at input offset " + end + " but its input stopped at " + input);
            }
            List<Integer> state = endBlock();
            return new Boundary(end, startBit + 8 * out.count(), state);
        }
    }
}
