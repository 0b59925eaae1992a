package dev.layerfold.dedup.codec.restart;

import dev.layerfold.dedup.codec.deflate.DeflateEncoder;
import dev.layerfold.dedup.codec.recipe.GzipMember;
import dev.layerfold.dedup.codec.recipe.RestartPoint;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Encodes a gzip member, on the caller's thread, the way a restore from restart points would: each
 * piece is encoded by a fresh encoder whose state is rebuilt from the input before it alone and the
 * state values the piece before it ended with, and ends at the first block boundary the encoder
 * reaches at or past {@code spacing} bytes from its start. Where each piece starts, its state values
 * and the sha256 of its bytes are recorded as candidate restart points. The candidates are verified
 * by whoever checks the bytes written: if the layer these bytes belong to has its digest, every piece
 * reproduced the original exactly, each from its rebuilt state. Not thread-safe.
 */
public final class ProvingMember implements DeflateEncoder {

    /** Input is taken in chunks of at most this size, so what a new piece needs stays in {@link #recent}. */
    private static final int CHUNK = 64 * 1024;

    private final GzipMember member;
    private final RestartSupport.Lookup restarts;
    private final long spacing;
    private final SegmentJoiner out;
    /**
     * The last input received: a new piece needs the {@link RestartSupport.Lookup#history} bytes before
     * its point and the input after it that the last piece looked ahead at.
     */
    private final byte[] recent;
    private final int history;
    private final List<RestartPoint> candidates = new ArrayList<>();
    private int recentLength;
    private long recentStart;
    private long received;
    private long fed;
    private SegmentEncoder.Boundary start = new SegmentEncoder.Boundary(0, 0, List.of());
    private SegmentEncoder encoder;

    private ProvingMember(GzipMember member, RestartSupport.Lookup restarts, long spacing, OutputStream out) {
        this.member = member;
        this.spacing = spacing;
        this.out = new SegmentJoiner(out);
        this.restarts = restarts;
        this.history = restarts.history(member.encoder());
        this.recent = new byte[2 * (history + restarts.lookahead(member.encoder()) + CHUNK)];
        this.encoder = open();
    }

    /**
     * An encoder for {@code member} that finds candidate points about {@code spacing} bytes apart,
     * or empty if its family has no restart points or it is shorter than two segments.
     */
    public static Optional<ProvingMember> of(GzipMember member, RestartSupport.Lookup restarts, long spacing, OutputStream out) {
        if (member.encoder().isNone()) {
            return Optional.empty();
        }
        Optional<Long> segment = restarts.spacing(member.encoder(), spacing)
                .filter(s -> member.uncompressedSize() > s && s <= GzipMember.MAX_SEGMENT_INPUT);
        return segment.isPresent() ? Optional.of(new ProvingMember(member, restarts, segment.get(), out)) : Optional.empty();
    }

    @Override
    public void write(byte[] data, int offset, int length) throws IOException {
        while (length > 0) {
            int n = Math.min(length, CHUNK);
            remember(data, offset, n);
            offset += n;
            length -= n;
            while (fed < received) {
                fed += encoder.write(recent, (int) (fed - recentStart), (int) (received - fed));
                if (encoder.reachedEnd()) {
                    nextPiece();
                }
            }
        }
    }

    @Override
    public void finish() throws IOException {
        encoder.finish();
        candidates.add(candidate(out.endSegment()));
        out.endStream();
    }

    /**
     * The member with its candidate points; they hold only once the layer's bytes proved right. None
     * if there is only the start (Go's, zlib's or GNU gzip's encoder reached no block boundary past the spacing).
     */
    public GzipMember withCandidates() {
        for (int i = 1; i <= candidates.size(); i++) {
            long end = i < candidates.size() ? candidates.get(i).inputOffset() : member.uncompressedSize();
            if (end - candidates.get(i - 1).inputOffset() > GzipMember.MAX_SEGMENT_INPUT) {
                // A family whose segments end only where a rebuilt state was found to hold found none for too long.
                return member;
            }
        }
        return candidates.size() > 1 ? member.withRestartPoints(candidates) : member;
    }

    private void nextPiece() throws IOException {
        SegmentEncoder.Boundary end = encoder.endAtRestartPoint();
        candidates.add(candidate(out.endSegment()));
        start = end;
        fed = end.inputOffset();
        out.beginSegment(end.outputBitOffset());
        encoder = open();
    }

    private SegmentEncoder open() {
        long point = start.inputOffset();
        int before = (int) Math.min(history, point);
        long end = point + spacing < member.uncompressedSize() ? point + spacing : Long.MAX_VALUE;
        SegmentEncoder segment = restarts.open(member.encoder(), candidate(new byte[32]), end, recent,
                (int) (point - before - recentStart), before, out);
        segment.verifyRestartPoints();
        return segment;
    }

    private RestartPoint candidate(byte[] sha256) {
        return new RestartPoint(start.inputOffset(), start.outputBitOffset(), start.state(), sha256);
    }

    /** Appends to {@link #recent}, dropping its older half when full (so that each byte moves about once). */
    private void remember(byte[] data, int offset, int n) {
        if (recentLength + n > recent.length) {
            int drop = recentLength + n - recent.length / 2;
            System.arraycopy(recent, drop, recent, 0, recentLength - drop);
            recentLength -= drop;
            recentStart += drop;
        }
        System.arraycopy(data, offset, recent, recentLength, n);
        recentLength += n;
        received += n;
    }
}
