package dev.layerfold.dedup.codec.deflate.zlib;

import dev.layerfold.dedup.codec.container.GzipHeader;
import dev.layerfold.dedup.codec.deflate.DeflateEncoder;
import dev.layerfold.dedup.codec.family.EncoderFamily;
import dev.layerfold.dedup.codec.family.FirstBlock;
import dev.layerfold.dedup.codec.io.CountingOutput;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;
import dev.layerfold.dedup.codec.recipe.RestartPoint;
import dev.layerfold.dedup.codec.restart.BlockAlignedSegment;
import dev.layerfold.dedup.codec.restart.RestartSupport;
import dev.layerfold.dedup.codec.restart.Segments;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Optional;

/**
 * {@value #NAME}: zlib; the level, then optionally memLevel, windowBits and strategy (zlib's
 * numbering) when they differ from zlib's defaults. Jib and Java write 6, Python 9.
 */
public final class ZlibFamily implements EncoderFamily {

    public static final String NAME = "zlib";
    private static final List<Integer> LEVEL_ORDER = List.of(6, 9, 1, 2, 3, 4, 5, 7, 8, 0);
    /** After the Go-based families' levels. */
    private static final int RANK = 2000;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<Candidate> candidates() {
        return Candidate.levels(NAME, LEVEL_ORDER, RANK, 1);
    }

    @Override
    public ZlibSpec decode(EncoderSpec spec) {
        return ZlibSpec.decode(spec);
    }

    @Override
    public DeflateEncoder encoder(EncoderSpec spec, OutputStream sink) {
        ZlibSpec zlib = ZlibSpec.decode(spec);
        return zlib.tuned() ? ZlibEncoder.create(sink, zlib.settings()) : ZlibEncoder.create(sink, zlib.level());
    }

    /** When the symbol buffer holds {@code (1 << (memLevel + 6)) - 1} symbols (16383 by default); level 0 writes stored blocks only. */
    @Override
    public boolean couldHaveWritten(EncoderSpec spec, FirstBlock first) {
        return spec.level() != 0 && first.symbols() == symbolBuffer(ZlibSpec.decode(spec).memLevel());
    }

    /** The symbols zlib's buffer holds at {@code memLevel}: it ends a block when full. */
    public static long symbolBuffer(int memLevel) {
        return (1L << (memLevel + 6)) - 1;
    }

    @Override
    public int osScore(EncoderSpec spec, int os) {
        return switch (os) {
            case GzipHeader.OS_UNIX, GzipHeader.OS_UNKNOWN -> 1;
            case GzipHeader.OS_FAT -> 2;
            default -> 0;
        };
    }

    /**
     * <ul>
     *   <li>Levels 4 to 9 with zlib's defaults (Python, Java, most tools linking zlib): a block ends when
     *       the symbol buffer fills; points carry {@link LazyRestartState}'s four values, and the encoder
     *       reads up to its 64 KiB window past a boundary.</li>
     *   <li>Levels 1 to 3 with zlib's defaults (deflate_fast: Python's {@code gzip.compress(data, 1)}): the
     *       same four values, but a resumed segment rebuilds its hash chains by a warm-up over the 256 KiB
     *       before the point, and the proof records only boundaries where a segment so resumed was seen to
     *       go on as the encoder did; the encoder reads up to 96 KiB past a boundary before it knows.</li>
     *   <li>Level 0, as the codec reproduces it (one deflate() call with all the input and room for all the
     *       output): 65535-byte stored blocks, every boundary a point without state or history.</li>
     * </ul>
     * Other than the default memLevel, window or strategy (which no candidate names) has none.
     */
    @Override
    public Optional<RestartSupport> restart(EncoderSpec spec) {
        if (ZlibSpec.decode(spec).tuned()) {
            return Optional.empty();
        }
        if (LazySegmentEncoder.restartable(spec.level())) {
            return Optional.of(lazy(LazySegmentEncoder.Deflate.ZLIB, spec.level()));
        }
        return spec.level() == 0 ? Optional.of(RestartSupport.everyBlock(ZlibEncoder.MAX_STORED, RestartSupport.HISTORY,
                (point, end, history, offset, length, out) -> stored(point, end, out))) : Optional.empty();
    }

    /** zlib's or GNU gzip's lazy-matching deflate at {@code level}, resumed from its state at a block boundary. */
    static RestartSupport lazy(LazySegmentEncoder.Deflate encoder, int level) {
        return RestartSupport.nearTarget(LazySegmentEncoder.history(level), LazySegmentEncoder.lookahead(level),
                (point, end, history, offset, length, out) -> Segments.atBoundaries(encoder.toString(), () -> Segments.fromStart(point)
                        ? LazySegmentEncoder.start(encoder, out, level)
                        : LazySegmentEncoder.resume(encoder, out, level, point.outputBitOffset(), LazyRestartState.of(point.inputOffset(), point.state()),
                                history, offset, length), point, end, history, offset, length, LazySegmentEncoder::finish));
    }

    /** Stored blocks of {@link ZlibEncoder#MAX_STORED} bytes, the last marked final, so a segment is a fresh stream's. */
    private static BlockAlignedSegment stored(RestartPoint point, long end, OutputStream out) {
        CountingOutput counted = BlockAlignedSegment.requireBlockAligned(NAME, ZlibEncoder.MAX_STORED, false, point, end, out);
        ZlibEncoder zlib = ZlibEncoder.create(counted, 0);
        return new BlockAlignedSegment(point, end, counted) {
            @Override
            protected void encode(byte[] data, int off, int len) throws IOException {
                zlib.write(data, off, len);
            }

            @Override
            protected List<Integer> endBlock() throws IOException {
                zlib.flush(ZlibFlush.BLOCK);
                return List.of();
            }

            @Override
            public void finish() throws IOException {
                zlib.finish();
            }
        };
    }
}
