package dev.layerfold.dedup.codec.restart;

import dev.layerfold.dedup.codec.deflate.BoundarySegment;
import dev.layerfold.dedup.codec.deflate.FlushableSegment;
import dev.layerfold.dedup.codec.deflate.VerifiedBlockSegment;
import dev.layerfold.dedup.codec.io.LayerRebuildException;
import dev.layerfold.dedup.codec.recipe.RestartPoint;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.function.Supplier;

/** The {@link SegmentEncoder} shapes the families' segment encoders fit, for their {@link RestartSupport}. */
public final class Segments {

    private Segments() {
    }

    /** Opens a segment of a family that records its state at block boundaries; an IOException is its resume's. */
    @FunctionalInterface
    public interface BoundarySegmentOpener<S extends BoundarySegment> {
        S open() throws IOException;
    }

    /** How a family's last segment ends once the input has. */
    @FunctionalInterface
    public interface SegmentFinish<S> {
        void finish(S segment) throws IOException;
    }

    /** Whether a point is the member's start: a segment there starts a fresh encoder. */
    public static boolean fromStart(RestartPoint point) {
        return point.inputOffset() == 0 && point.outputBitOffset() == 0 && point.state().isEmpty();
    }

    /** Go's {@code Close}, after a {@code Flush} if the producer flushed the stream right before its end. */
    public static <S extends BoundarySegment & FlushableSegment> SegmentFinish<S> goFinish(boolean flushed) {
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
    public static <S extends BoundarySegment> SegmentEncoder atBoundaries(String family, BoundarySegmentOpener<S> opener, RestartPoint point,
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

    /**
     * A family whose segments end at the first block boundary past {@code end} that the proof verifies; {@code state}: the next
     * point's values; {@code flushed}: the producer flushed the stream right before its end.
     */
    public static SegmentEncoder verified(String family, VerifiedBlockSegment go, boolean flushed, RestartPoint point, long end, byte[] history,
                                          int offset, int length, Supplier<List<Integer>> state) {
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
}
