package dev.layerfold.dedup.codec.zstd;

import dev.layerfold.dedup.codec.io.VerifyingOutput;
import dev.layerfold.dedup.codec.recipe.ZstdFrame;
import dev.layerfold.dedup.codec.recipe.ZstdRestartPoint;
import dev.layerfold.dedup.codec.zstd.encoder.FrameProver;
import dev.layerfold.dedup.codec.zstd.klauspost.XxHash64;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a libzstd frame made with worker threads as a restore from restart points would
 * ({@link LibzstdJobs}), on the caller's thread: in pieces of whole jobs, each starting at the first
 * job boundary {@code spacing} or more past the last, each encoded by a new frame given the
 * overlap before it as a job of its own. The checksum, which covers all of the content, is computed
 * here as the content goes by. Not thread-safe.
 */
final class LibzstdFrameProver implements FrameProver {

    private final LibzstdJobs jobs;
    private final long contentSize;
    private final long spacing;
    private final boolean checksummed;
    /** The frame's bytes as they go out: counted, and the digest of the piece under way. */
    private final VerifyingOutput out;
    private final XxHash64 checksum = new XxHash64();
    /** The input from the next point's history start to the point, as it arrives. */
    private byte[] history;
    private final List<ZstdRestartPoint> candidates = new ArrayList<>();
    private long received;
    private long pieceStart;
    private long pieceOutput;
    private long nextPoint;
    private LibzstdJobs.Segment piece;

    LibzstdFrameProver(LibzstdJobs jobs, ZstdFrame.Compressed frame, long spacing, OutputStream sink) {
        this.jobs = jobs;
        this.contentSize = frame.contentSize();
        this.spacing = spacing;
        this.checksummed = frame.checksum().length == 4;
        this.out = new VerifyingOutput(sink);
        try {
            piece = jobs.segment(0, new byte[0], 0, 0, out);
        } catch (IOException e) {
            throw new IllegalStateException("a frame's start writes nothing before its input", e);
        }
        setNextPoint(pointAfter(0));
    }

    /** Whether {@code frame} is libzstd's with worker threads, with a job boundary {@code spacing} or more past its start. */
    static boolean proves(ZstdFrame.Compressed frame, long spacing) {
        return LibzstdJobs.of(frame).filter(jobs -> firstJobBoundaryFrom(jobs, spacing) < frame.contentSize()).isPresent();
    }

    @Override
    public void write(byte[] data, int offset, int length) throws IOException {
        checksum.update(data, offset, length);
        while (length > 0) {
            int n = (int) Math.min(length, nextPoint - received);
            long historyStart = nextPoint - history.length;
            if (received + n > historyStart) {
                int from = (int) Math.max(0, historyStart - received);
                System.arraycopy(data, offset + from, history, (int) (received + from - historyStart), n - from);
            }
            piece.write(data, offset, n);
            received += n;
            offset += n;
            length -= n;
            if (received == nextPoint) {
                piece.end(false);
                endPiece();
                piece = jobs.segment(received, history, 0, history.length, out);
                pieceStart = received;
                pieceOutput = out.size();
                setNextPoint(pointAfter(received));
            }
        }
    }

    @Override
    public void drain() {
        // each piece's bytes go out as its jobs end
    }

    @Override
    public void finish() throws IOException {
        if (received != contentSize) {
            throw new IllegalStateException("the frame has " + contentSize + " bytes of content, " + received + " were written");
        }
        piece.end(true);
        endPiece();
        if (checksummed) {
            out.write(checksum.frameChecksum());
        }
    }

    @Override
    public void close() {
        piece.close();
    }

    @Override
    public List<ZstdRestartPoint> candidates() {
        return List.copyOf(candidates);
    }

    private void endPiece() {
        candidates.add(new ZstdRestartPoint(pieceStart, pieceOutput, new byte[0], out.sha256SinceLast()));
    }

    private void setNextPoint(long point) {
        nextPoint = point;
        history = new byte[point == Long.MAX_VALUE ? 0 : (int) (point - jobs.historyStart(point))];
    }

    /** The first job boundary {@link #spacing} or more past {@code point} with content after it; none past the frame's end. */
    private long pointAfter(long point) {
        long candidate = firstJobBoundaryFrom(jobs, point + spacing);
        return candidate < contentSize ? candidate : Long.MAX_VALUE;
    }

    private static long firstJobBoundaryFrom(LibzstdJobs jobs, long offset) {
        return (offset + jobs.jobSize() - 1) / jobs.jobSize() * jobs.jobSize();
    }
}
