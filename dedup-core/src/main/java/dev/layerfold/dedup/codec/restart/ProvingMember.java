package dev.layerfold.dedup.codec.restart;

import dev.layerfold.dedup.codec.VerifyingOutput;
import dev.layerfold.dedup.codec.deflate.DeflateEncoder;
import dev.layerfold.dedup.codec.recipe.GzipMember;
import dev.layerfold.dedup.codec.recipe.RestartPoint;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Encodes a gzip member, on the caller's thread, the way a restore from restart points would: the
 * input is cut every {@code spacing} bytes (whole blocks of the encoder), and each piece is encoded by
 * a fresh encoder whose state is rebuilt from the input before it alone. Where each piece's bytes
 * start and their sha256 are recorded as candidate restart points. The candidates are verified by
 * whoever checks the bytes written: if the layer these bytes belong to has its digest, every piece
 * reproduced the original exactly, each from its rebuilt state. Not thread-safe.
 */
public final class ProvingMember implements DeflateEncoder {

    private final GzipMember member;
    private final long spacing;
    private final VerifyingOutput out;
    private final byte[] history = new byte[RestartableEncoders.HISTORY];
    private final List<RestartPoint> candidates = new ArrayList<>();
    private int historyLength;
    private long input;
    private long segmentInput;
    private long segmentOutput;
    private SegmentEncoder encoder;

    private ProvingMember(GzipMember member, long spacing, OutputStream out) {
        this.member = member;
        this.spacing = spacing;
        this.out = new VerifyingOutput(out);
        this.encoder = RestartableEncoders.open(member.encoder(), candidate(new byte[32]), history, 0, 0, this.out);
    }

    /**
     * An encoder for {@code member} that finds candidate points about {@code spacing} bytes apart,
     * or empty if its family has no restart points or it is shorter than two segments.
     */
    public static Optional<ProvingMember> of(GzipMember member, long spacing, OutputStream out) {
        if (member.encoder().isNone()) {
            return Optional.empty();
        }
        return RestartableEncoders.spacing(member.encoder(), spacing)
                .filter(segment -> member.uncompressedSize() > segment && segment <= GzipMember.MAX_SEGMENT_INPUT)
                .map(segment -> new ProvingMember(member, segment, out));
    }

    @Override
    public void write(byte[] data, int offset, int length) throws IOException {
        while (length > 0) {
            long boundary = segmentInput + spacing;
            int n = (int) (boundary < member.uncompressedSize() ? Math.min(length, boundary - input) : length);
            encoder.write(data, offset, n);
            remember(data, offset, n);
            input += n;
            offset += n;
            length -= n;
            if (input == boundary && boundary < member.uncompressedSize()) {
                encoder.endAtRestartPoint();
                candidates.add(candidate(out.sha256SinceLast()));
                segmentInput = input;
                segmentOutput = out.size();
                encoder = RestartableEncoders.open(member.encoder(), candidate(new byte[32]), history, 0, historyLength, out);
            }
        }
    }

    @Override
    public void finish() throws IOException {
        encoder.finish();
        candidates.add(candidate(out.sha256SinceLast()));
    }

    /** The member with its candidate points; they hold only once the layer's bytes proved right. */
    public GzipMember withCandidates() {
        return member.withRestartPoints(candidates);
    }

    private RestartPoint candidate(byte[] sha256) {
        return new RestartPoint(segmentInput, segmentOutput * 8, List.of(), sha256);
    }

    /** Keeps the last {@link RestartableEncoders#HISTORY} bytes of the input. */
    private void remember(byte[] data, int offset, int n) {
        if (n >= history.length) {
            System.arraycopy(data, offset + n - history.length, history, 0, history.length);
            historyLength = history.length;
            return;
        }
        int keep = Math.min(historyLength, history.length - n);
        System.arraycopy(history, historyLength - keep, history, 0, keep);
        System.arraycopy(data, offset, history, keep, n);
        historyLength = keep + n;
    }
}
