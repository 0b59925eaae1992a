package dev.layerfold.dedup.codec.restart;

import dev.layerfold.dedup.codec.deflate.DeflateEncoder;
import dev.layerfold.dedup.codec.io.LayerRebuildException;
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
 * Encodes a gzip member with restart points on a {@link SegmentPool} ({@link ParallelSegments}), the
 * segments joined by {@link SegmentJoiner}. Every segment's bytes are checked against the digest its
 * point records before they go out, and, for a whole member, the CRC-32 combined from the segments'
 * against the trailer's; a damaged recipe fails here, never reaching a client as a whole response.
 * Not thread-safe (one restore's thread drives it).
 */
public final class ParallelMember extends ParallelSegments<ParallelMember.Encoded> implements DeflateEncoder {

    record Encoded(byte[] bytes, long crc, long inputLength) {
    }

    private final GzipMember member;
    private final RestartSupport.Lookup restarts;
    private final List<RestartPoint> points;
    private final SegmentJoiner out;
    private final boolean wholeMember;
    private long crc;

    /**
     * @param first the point to start at (0: the member's start); the input written must start at
     *              {@link #inputStart(RestartSupport.Lookup, EncoderSpec, RestartPoint)}, the history the point's rebuilt state reads.
     *              If that point starts inside a byte, the output starts at its first whole byte.
     */
    public ParallelMember(GzipMember member, RestartSupport.Lookup restarts, int first, SegmentPool pool, OutputStream out) {
        super(member.restartPoints().stream().mapToLong(RestartPoint::inputOffset).toArray(), member.uncompressedSize(), first,
                first < member.restartPoints().size() && first >= 0 ? inputStart(restarts, member.encoder(), member.restartPoints().get(first)) : 0,
                pool, restarts.lookahead(member.encoder()), "gzip member");
        this.member = member;
        this.restarts = restarts;
        this.points = member.restartPoints();
        this.out = new SegmentJoiner(out);
        this.wholeMember = first == 0;
    }

    /** Where in the member's input the bytes written must start to resume at {@code point} of {@code encoder}: the history its state reads. */
    public static long inputStart(RestartSupport.Lookup restarts, EncoderSpec encoder, RestartPoint point) {
        return point.inputOffset() - Math.min(restarts.history(encoder), point.inputOffset());
    }

    @Override
    protected long inputStart(int index) {
        return inputStart(restarts, member.encoder(), points.get(index));
    }

    @Override
    public void finish() throws IOException {
        finishSegments();
        out.endStream();
        if (wholeMember && crc != trailerCrc()) {
            throw new LayerRebuildException(String.format("the segments' combined CRC-32 %08x differs from the gzip trailer's %08x", crc, trailerCrc()));
        }
    }

    @Override
    protected void emit(int index, Encoded encoded) throws IOException {
        out.beginSegment(points.get(index).outputBitOffset());
        out.write(encoded.bytes());
        out.endSegment();
        crc = Crc32Combine.combine(crc, encoded.crc(), encoded.inputLength());
    }

    @Override
    protected Encoded encode(Segment segment) throws IOException {
        int index = segment.index();
        RestartPoint point = points.get(index);
        RestartPoint nextPoint = segment.last() ? null : points.get(index + 1);
        int given = segment.buffer().length - segment.historyLength();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(Math.max(1024, given / 2));
        SegmentEncoder encoder = restarts.open(member.encoder(), point, segment.last() ? Long.MAX_VALUE : nextPoint.inputOffset(),
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
        checkDigest(encoded, point.segmentSha256(), index, point.inputOffset());
        CRC32 segmentCrc = new CRC32();
        segmentCrc.update(segment.buffer(), segment.historyLength(), segment.inputLength());
        return new Encoded(encoded, segmentCrc.getValue(), segment.inputLength());
    }

    private long trailerCrc() {
        byte[] t = member.trailer();
        return (t[0] & 0xffL) | (t[1] & 0xffL) << 8 | (t[2] & 0xffL) << 16 | (t[3] & 0xffL) << 24;
    }

    /** Fails unless {@code encoded} has the digest its point records. */
    public static void checkDigest(byte[] encoded, byte[] expected, int index, long inputOffset) throws LayerRebuildException {
        byte[] digest;
        try {
            digest = MessageDigest.getInstance("SHA-256").digest(encoded);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
        if (!Arrays.equals(digest, expected)) {
            throw new LayerRebuildException("segment " + index + " (from input offset " + inputOffset
                    + ") did not encode to the bytes its restart point records: the recipe is damaged or the point was not verified");
        }
    }
}
