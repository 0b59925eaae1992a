package dev.layerfold.dedup.codec.zstd;

import dev.layerfold.dedup.codec.recipe.ZstdFrame;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Optional;

/**
 * The jobs of a libzstd frame written with worker threads (ZSTDMT: the zstd CLI's default), and the
 * frame written again from the start of any of them. libzstd 1.5.7 cuts such a frame's content into
 * jobs of four windows, 1 MiB at least (ZSTDMT_computeTargetJobLog), and compresses each by a fresh
 * context whose only history is the last bytes of the job before, loaded as raw content
 * (ZSTDMT_computeOverlapSize: a share of the window by the level's strategy), with repeat offsets and
 * entropy tables reset; the jobs' blocks are concatenated, the header coming with the first, the
 * checksum (XXH64 of all of the content) after the last. So from a job boundary on, a new frame with the
 * original's settings writes the original's blocks once it was given those overlap bytes alone as its
 * first job (ZSTD_e_flush ends a job early), whose output is dropped (and whose search is therefore
 * the cheapest: {@link LibzstdEncoder#writeUnusedFirstJob}). That is the claim the proof
 * ({@link LibzstdFrameProver}) checks piece by piece; nothing relies on it unchecked.
 */
public final class LibzstdJobs {

    private final LibzstdSettings settings;
    private final long contentSize;
    private final long jobSize;
    private final int overlap;

    private LibzstdJobs(LibzstdSettings settings, long contentSize) {
        this.settings = settings;
        this.contentSize = contentSize;
        int windowLog = ZstdEncoders.windowLog(settings.level());
        this.jobSize = 1L << Math.max(20, windowLog + 2);
        this.overlap = 1 << windowLog - (9 - ZstdEncoders.overlapLog(settings.level()));
    }

    /**
     * The jobs of {@code frame}, or empty if it is not libzstd's with worker threads or holds one job
     * (or this build cannot run libzstd {@value ZstdEncoders#PROVEN_VERSION}).
     */
    public static Optional<LibzstdJobs> of(ZstdFrame.Compressed frame) {
        if (!frame.encoder().family().equals(ZstdEncoders.LIBZSTD) || !ZstdEncoders.standard().available()) {
            return Optional.empty();
        }
        LibzstdSettings settings = LibzstdSettings.of(frame.encoder());
        if (settings.workers() == 0 || settings.level() < 1 || settings.level() > ZstdEncoders.MAX_LEVEL) {
            return Optional.empty();
        }
        LibzstdJobs jobs = new LibzstdJobs(settings, frame.contentSize());
        return frame.contentSize() > jobs.jobSize ? Optional.of(jobs) : Optional.empty();
    }

    /** How many bytes of content each job holds (the last one the rest). */
    public long jobSize() {
        return jobSize;
    }

    /** Whether the frame's content at {@code offset} starts a job. */
    public boolean startsJob(long offset) {
        return offset % jobSize == 0 && offset >= 0 && offset < contentSize;
    }

    /** Where the input a segment from job boundary {@code point} reads starts: the overlap before it, none at the frame's start. */
    public long historyStart(long point) {
        return point == 0 ? 0 : point - overlap;
    }

    /**
     * An encoder of the frame's content from job boundary {@code point} on, given the input before it
     * from {@link #historyStart}: it writes to {@code sink} the frame's bytes from the start of that
     * job (the header too at the frame's start), as the content is written to it.
     */
    public Segment segment(long point, byte[] history, int offset, int length, OutputStream sink) throws IOException {
        if (!startsJob(point) || length != point - historyStart(point)) {
            throw new IllegalArgumentException("content offset " + point + " with " + length + " bytes before it is not where a job of "
                    + jobSize + " bytes starts with its " + overlap + " bytes of overlap");
        }
        return new Segment(history, offset, length, sink);
    }

    /** The frame's encoder from a job boundary on: {@link #write}, then {@link #end}. Holds native memory until ended or closed. */
    public final class Segment implements AutoCloseable {

        private final SegmentOutput out;
        private final LibzstdEncoder encoder;

        private Segment(byte[] history, int offset, int length, OutputStream sink) throws IOException {
            out = new SegmentOutput(sink, settings.checksum() ? 4 : 0);
            encoder = new LibzstdEncoder(settings, settings.pledgedSize() ? contentSize : -1, out, null);
            try {
                if (length > 0) {
                    encoder.writeUnusedFirstJob(history, offset, length);
                }
                out.open();
            } catch (IOException | RuntimeException e) {
                encoder.close();
                throw e;
            }
        }

        public void write(byte[] data, int offset, int length) throws IOException {
            encoder.write(data, offset, length);
        }

        /**
         * Ends the segment: the job under way, with ZSTD_e_flush, or, where it is the frame's last,
         * the frame, as the original ended it, without the checksum (this frame's covers only what it was given).
         */
        public void end(boolean last) throws IOException {
            if (last) {
                encoder.finish();
            } else {
                encoder.flush();
                encoder.close();
                out.releaseHeld();
            }
        }

        @Override
        public void close() {
            encoder.close();
        }
    }

    /**
     * The segment's output: dropped until opened (the overlap's job), then passed on but for its
     * last {@code held} bytes, which are written only if the segment ends without ending the frame
     * (else they are the checksum).
     */
    private static final class SegmentOutput extends OutputStream {
        private final OutputStream sink;
        private final byte[] tail;
        private int tailLength;
        private boolean open;

        SegmentOutput(OutputStream sink, int held) {
            this.sink = sink;
            this.tail = new byte[held];
        }

        void open() {
            open = true;
        }

        void releaseHeld() throws IOException {
            sink.write(tail, 0, tailLength);
            tailLength = 0;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] data, int offset, int length) throws IOException {
            if (!open) {
                return;
            }
            int pass = tailLength + length - tail.length;
            if (pass > 0) {
                int fromTail = Math.min(pass, tailLength);
                sink.write(tail, 0, fromTail);
                System.arraycopy(tail, fromTail, tail, 0, tailLength - fromTail);
                tailLength -= fromTail;
                int fromData = pass - fromTail;
                sink.write(data, offset, fromData);
                offset += fromData;
                length -= fromData;
            }
            System.arraycopy(data, offset, tail, tailLength, length);
            tailLength += length;
        }
    }
}
