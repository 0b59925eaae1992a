package dev.layerfold.dedup.codec.restart;

import dev.layerfold.dedup.codec.LayerRebuildException;
import dev.layerfold.dedup.codec.deflate.DeflateEncoder;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;
import dev.layerfold.dedup.codec.recipe.GzipMember;
import dev.layerfold.dedup.codec.recipe.RestartPoint;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32;

/**
 * Encodes a gzip member with restart points on a {@link SegmentPool}: the input, as it arrives, is
 * cut at the points; each segment (with the history before it its state reads, and the input after it its encoder
 * looks ahead at) is encoded on a pool thread from its rebuilt state, and the segments' bytes go out
 * in order, joined by {@link SegmentJoiner}, each as soon as it and those before it are done, so the
 * first bytes leave when the first segment is ready. Every segment's bytes are checked
 * against the digest its point records before they go out, and, for a whole member, the CRC-32
 * combined from the segments' against the trailer's; a damaged recipe fails here, never reaching a
 * client as a whole response. Not thread-safe (one restore's thread drives it).
 */
public final class ParallelMember implements DeflateEncoder {

    /** A segment's bytes to encode: its history, its input, then the input its encoder may look ahead at. */
    private record Segment(int index, byte[] buffer, int historyLength, int inputLength, boolean last) {
    }

    private record Encoded(int index, byte[] bytes, long crc, long inputLength) {
    }

    private final GzipMember member;
    private final List<RestartPoint> points;
    private final SegmentJoiner out;
    private final InOrderSegments<Encoded> inFlight;
    private final boolean wholeMember;
    private final int lookahead;
    private int next;
    private byte[] buffer;
    /** The input offset of {@code buffer[0]}. */
    private long bufferStart;
    private int filled;
    /** The input received before the segment under way starts, from input offset {@link #carriedFrom}: the history and lookahead it shares. */
    private byte[] carried;
    private long carriedFrom;
    private long crc;

    /**
     * @param first the point to start at (0: the member's start); the input written must start at
     *              {@link #inputStart(EncoderSpec, RestartPoint)}, the history the point's rebuilt state reads.
     *              If that point starts inside a byte, the output starts at its first whole byte.
     */
    public ParallelMember(GzipMember member, int first, SegmentPool pool, OutputStream out) {
        if (first < 0 || first >= member.restartPoints().size()) {
            throw new IllegalArgumentException("this member has no restart point " + first);
        }
        this.member = member;
        this.points = member.restartPoints();
        this.out = new SegmentJoiner(out);
        this.inFlight = new InOrderSegments<>(pool, this::writeSegment);
        this.next = first;
        this.wholeMember = first == 0;
        this.lookahead = RestartableEncoders.lookahead(member.encoder());
        this.carriedFrom = inputStart(member.encoder(), points.get(first));
        this.carried = new byte[0];
    }

    /** Where in the member's input the bytes written must start to resume at {@code point} of {@code encoder}: the history its state reads. */
    public static long inputStart(EncoderSpec encoder, RestartPoint point) {
        return point.inputOffset() - Math.min(RestartableEncoders.history(encoder), point.inputOffset());
    }

    @Override
    public void write(byte[] data, int offset, int length) throws IOException {
        while (length > 0) {
            if (buffer == null) {
                if (next >= points.size()) {
                    throw new LayerRebuildException("the tar stream holds more bytes than the gzip member's " + member.uncompressedSize());
                }
                if (!startSegment()) {
                    // Still reading the history before the first point.
                    int n = (int) Math.min(length, points.get(next).inputOffset() - carriedFrom - carried.length);
                    carried = Arrays.copyOf(carried, carried.length + n);
                    System.arraycopy(data, offset, carried, carried.length - n, n);
                    offset += n;
                    length -= n;
                    continue;
                }
            }
            int n = Math.min(length, buffer.length - filled);
            System.arraycopy(data, offset, buffer, filled, n);
            filled += n;
            offset += n;
            length -= n;
            submitFull();
        }
        inFlight.writeFinished();
    }

    @Override
    public void finish() throws IOException {
        if (buffer != null || next < points.size()) {
            throw new LayerRebuildException("the tar stream ends inside the gzip member's segment " + next);
        }
        inFlight.finish();
        out.endStream();
        if (wholeMember && crc != trailerCrc()) {
            throw new LayerRebuildException(String.format("the segments' combined CRC-32 %08x differs from the gzip trailer's %08x", crc, trailerCrc()));
        }
    }

    /** Drops the segments under way (the restore failed or its clients left) and gives their buffers back. */
    public void abort() {
        inFlight.abort();
        buffer = null;
    }

    /**
     * Starts the next segment's buffer with the input already received that it needs; false (and no
     * buffer) while the history before the first point is not all received.
     */
    private boolean startSegment() throws IOException {
        RestartPoint point = points.get(next);
        bufferStart = inputStart(member.encoder(), point);
        if (carriedFrom + carried.length < point.inputOffset()) {
            return false;
        }
        inFlight.reserve();
        long end = next + 1 < points.size() ? Math.min(points.get(next + 1).inputOffset() + lookahead, member.uncompressedSize()) : member.uncompressedSize();
        buffer = new byte[Math.toIntExact(end - bufferStart)];
        int from = Math.toIntExact(bufferStart - carriedFrom);
        filled = Math.min(carried.length - from, buffer.length);
        System.arraycopy(carried, from, buffer, 0, filled);
        return true;
    }

    /** Submits the segment under way if its buffer is full, and those after it that what it holds fills too. */
    private void submitFull() throws IOException {
        while (buffer != null && filled == buffer.length) {
            submit();
            if (next < points.size()) {
                startSegment();
            }
        }
    }

    private void submit() throws IOException {
        boolean last = next + 1 == points.size();
        RestartPoint point = points.get(next);
        long end = last ? member.uncompressedSize() : points.get(next + 1).inputOffset();
        int historyLength = (int) (point.inputOffset() - bufferStart);
        Segment segment = new Segment(next, buffer, historyLength, (int) (end - point.inputOffset()), last);
        // Encoders only read their buffer: the next segment copies what it shares from this one.
        carried = buffer;
        carriedFrom = bufferStart;
        buffer = null;
        next++;
        inFlight.submit(() -> encode(segment));
    }

    private void writeSegment(Encoded encoded) throws IOException {
        out.beginSegment(points.get(encoded.index()).outputBitOffset());
        out.write(encoded.bytes());
        out.endSegment();
        crc = Crc32Combine.combine(crc, encoded.crc(), encoded.inputLength());
    }

    private Encoded encode(Segment segment) throws IOException {
        int index = segment.index();
        RestartPoint point = points.get(index);
        RestartPoint nextPoint = segment.last() ? null : points.get(index + 1);
        int given = segment.buffer().length - segment.historyLength();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(Math.max(1024, given / 2));
        SegmentEncoder encoder = RestartableEncoders.open(member.encoder(), point, segment.last() ? Long.MAX_VALUE : nextPoint.inputOffset(),
                segment.buffer(), 0, segment.historyLength(), bytes);
        int taken = encoder.write(segment.buffer(), segment.historyLength(), given);
        if (segment.last()) {
            if (taken != given) {
                throw new LayerRebuildException("the last segment (" + index + ") ended before the member's end: the recipe is damaged");
            }
            encoder.finish();
        } else {
            SegmentEncoder.Boundary end = encoder.endAtRestartPoint();
            if (end.inputOffset() != nextPoint.inputOffset() || end.outputBitOffset() != nextPoint.outputBitOffset()) {
                throw new LayerRebuildException("segment " + index + " ended at input offset " + end.inputOffset() + ", bit " + end.outputBitOffset()
                        + ", but its next restart point is at " + nextPoint.inputOffset() + ", bit " + nextPoint.outputBitOffset() + ": the recipe is damaged");
            }
        }
        byte[] encoded = bytes.toByteArray();
        if (!Arrays.equals(sha256(encoded), point.segmentSha256())) {
            throw new LayerRebuildException("segment " + index + " (from input offset " + point.inputOffset()
                    + ") did not encode to the bytes its restart point records: the recipe is damaged or the point was not verified");
        }
        CRC32 segmentCrc = new CRC32();
        segmentCrc.update(segment.buffer(), segment.historyLength(), segment.inputLength());
        return new Encoded(index, encoded, segmentCrc.getValue(), segment.inputLength());
    }

    private long trailerCrc() {
        byte[] t = member.trailer();
        return (t[0] & 0xffL) | (t[1] & 0xffL) << 8 | (t[2] & 0xffL) << 16 | (t[3] & 0xffL) << 24;
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
