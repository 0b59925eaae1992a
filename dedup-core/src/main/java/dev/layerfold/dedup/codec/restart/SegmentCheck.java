package dev.layerfold.dedup.codec.restart;

import dev.layerfold.dedup.codec.container.DeflateMember;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;
import dev.layerfold.dedup.codec.recipe.RestartPoint;

import java.io.IOException;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One member's check, fed the original deflate bytes and the inflated bytes as the blob is read:
 * the input is cut every {@code spacing} bytes, each piece encoded from a state rebuilt from the input
 * before it, and the output compared with the original as it comes. The original always runs ahead
 * of the encoder (a block is inflated only once its bits were read); what is not compared yet waits
 * here, at most {@link #MAX_LEAD} bytes, or the member gets no points.
 */
final class SegmentCheck implements DeflateMember.Listener {

    private static final int MAX_LEAD = 16 << 20;

    private final EncoderSpec spec;
    private final long size;
    private final long spacing;
    private final History history = new History(RestartableEncoders.HISTORY);
    private final List<RestartPoint> verified = new ArrayList<>();
    private final Comparison comparison = new Comparison();
    private final MessageDigest segmentSha;
    private byte[] original = new byte[BUFFER_START];
    private int originalStart;
    private int originalEnd;
    private long compared;
    private long input;
    private long segmentInput;
    private long segmentOutput;
    private SegmentEncoder encoder;
    private boolean failed;

    private static final int BUFFER_START = 256 * 1024;

    SegmentCheck(EncoderSpec spec, long size, long spacing) {
        this.spec = spec;
        this.size = size;
        this.spacing = spacing;
        try {
            this.segmentSha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
        this.encoder = RestartableEncoders.open(spec, point(), new byte[0], 0, 0, comparison);
    }

    @Override
    public void deflated(byte[] data, int offset, int length) {
        if (failed) {
            return;
        }
        if (originalEnd + length > original.length) {
            System.arraycopy(original, originalStart, original, 0, originalEnd - originalStart);
            originalEnd -= originalStart;
            originalStart = 0;
            if (originalEnd + length > original.length) {
                if (originalEnd + length > MAX_LEAD) {
                    failed = true;
                    return;
                }
                original = Arrays.copyOf(original, Math.max(original.length * 2, originalEnd + length));
            }
        }
        System.arraycopy(data, offset, original, originalEnd, length);
        originalEnd += length;
    }

    @Override
    public void inflated(byte[] data, int offset, int length) throws IOException {
        while (length > 0 && !failed) {
            long boundary = segmentInput + spacing;
            int n = (int) Math.min(length, boundary < size ? boundary - input : length);
            encoder.write(data, offset, n);
            history.add(data, offset, n);
            input += n;
            offset += n;
            length -= n;
            if (input == boundary && boundary < size && !failed) {
                encoder.endAtRestartPoint();
                endSegment();
                segmentInput = input;
                segmentOutput = compared;
                encoder = RestartableEncoders.open(spec, point(), history.bytes(), 0, history.length(), comparison);
            }
        }
    }

    /** The verified points once the member was read whole, or none if any segment differed. */
    List<RestartPoint> finish() throws IOException {
        if (failed) {
            return List.of();
        }
        encoder.finish();
        if (failed || originalStart != originalEnd) {
            return List.of();
        }
        endSegment();
        return verified;
    }

    private RestartPoint point() {
        return new RestartPoint(segmentInput, segmentOutput * 8, List.of(), new byte[32]);
    }

    private void endSegment() {
        verified.add(new RestartPoint(segmentInput, segmentOutput * 8, List.of(), segmentSha.digest()));
    }

    /** Keeps the last bytes of the input, the history a rebuilt state reads. */
    private static final class History {
        private final byte[] bytes;
        private int length;

        History(int capacity) {
            bytes = new byte[capacity];
        }

        void add(byte[] data, int offset, int n) {
            if (n >= bytes.length) {
                System.arraycopy(data, offset + n - bytes.length, bytes, 0, bytes.length);
                length = bytes.length;
                return;
            }
            int keep = Math.min(length, bytes.length - n);
            System.arraycopy(bytes, length - keep, bytes, 0, keep);
            System.arraycopy(data, offset, bytes, keep, n);
            length = keep + n;
        }

        byte[] bytes() {
            return bytes;
        }

        int length() {
            return length;
        }
    }

    /** Where the segment encoders write: compares with the original and hashes the segment. */
    private final class Comparison extends OutputStream {
        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] data, int offset, int length) {
            if (failed) {
                return;
            }
            if (length > originalEnd - originalStart
                    || !Arrays.equals(data, offset, offset + length, original, originalStart, originalStart + length)) {
                failed = true;
                return;
            }
            segmentSha.update(data, offset, length);
            originalStart += length;
            compared += length;
        }
    }
}
