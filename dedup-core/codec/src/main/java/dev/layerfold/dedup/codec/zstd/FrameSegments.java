package dev.layerfold.dedup.codec.zstd;

import dev.layerfold.dedup.codec.recipe.ZstdFrame;
import dev.layerfold.dedup.codec.recipe.ZstdRestartPoint;
import dev.layerfold.dedup.codec.restart.ParallelSegments;
import dev.layerfold.dedup.codec.zstd.klauspost.KlauspostFrameProver;
import dev.layerfold.dedup.codec.zstd.klauspost.KlauspostSettings;
import dev.layerfold.dedup.codec.zstd.klauspost.KlauspostZstdEncoder;

import java.io.ByteArrayOutputStream;
import java.io.IOException;

/**
 * How a zstd frame's encoder restarts at a point, by its kind: klauspost's Writer from a warm-up and
 * the point's patch, libzstd with worker threads from the start of a job and its overlap
 * ({@link LibzstdJobs}). A segment's bytes are the frame's from its point to the next, the last
 * without the frame's checksum.
 */
interface FrameSegments {

    /** Where in the frame's content the input a segment from {@code point} reads starts. */
    long inputStart(ZstdRestartPoint point);

    /** Encodes a segment, on any thread. */
    byte[] encode(ZstdRestartPoint point, ParallelSegments.Segment segment) throws IOException;

    /** @throws IllegalArgumentException if the frame's encoder has no restart points */
    static FrameSegments of(ZstdFrame.Compressed frame) {
        if (frame.encoder().family().equals(KlauspostSettings.FAMILY)) {
            return new Klauspost(KlauspostSettings.of(frame.encoder()));
        }
        return new Libzstd(LibzstdJobs.of(frame)
                .orElseThrow(() -> new IllegalArgumentException("encoder " + frame.encoder() + " of a frame of " + frame.contentSize()
                        + " bytes has no restart points")));
    }

    record Klauspost(KlauspostSettings settings) implements FrameSegments {

        @Override
        public long inputStart(ZstdRestartPoint point) {
            return point.inputOffset() - KlauspostZstdEncoder.restartHistory(settings, point.inputOffset());
        }

        @Override
        public byte[] encode(ZstdRestartPoint point, ParallelSegments.Segment segment) throws IOException {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(Math.max(1024, segment.inputLength() / 2));
            KlauspostZstdEncoder encoder = KlauspostZstdEncoder.restartSegment(settings, point.inputOffset(), point.patch(), KlauspostFrameProver.WARM_UP,
                    segment.buffer(), 0, segment.historyLength(), bytes);
            encoder.write(segment.buffer(), segment.historyLength(), segment.inputLength());
            if (segment.last()) {
                encoder.finish();
            }
            return bytes.toByteArray();
        }
    }

    /** libzstd's points carry nothing but offsets and a digest: a patch is a damaged recipe's. */
    record Libzstd(LibzstdJobs jobs) implements FrameSegments {

        @Override
        public long inputStart(ZstdRestartPoint point) {
            if (point.patch().length > 0 || !jobs.startsJob(point.inputOffset())) {
                throw new IllegalArgumentException("a libzstd restart point lies where a job starts and has no patch; the one at content offset "
                        + point.inputOffset() + " has " + point.patch().length + " bytes of patch");
            }
            return jobs.historyStart(point.inputOffset());
        }

        @Override
        public byte[] encode(ZstdRestartPoint point, ParallelSegments.Segment segment) throws IOException {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(Math.max(1024, segment.inputLength() / 2));
            try (LibzstdJobs.Segment encoder = jobs.segment(point.inputOffset(), segment.buffer(), 0, segment.historyLength(), bytes)) {
                encoder.write(segment.buffer(), segment.historyLength(), segment.inputLength());
                encoder.end(segment.last());
            }
            return bytes.toByteArray();
        }
    }
}
