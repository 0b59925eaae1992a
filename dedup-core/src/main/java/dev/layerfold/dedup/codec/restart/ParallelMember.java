package dev.layerfold.dedup.codec.restart;

import dev.layerfold.dedup.codec.LayerRebuildException;
import dev.layerfold.dedup.codec.deflate.DeflateEncoder;
import dev.layerfold.dedup.codec.recipe.GzipMember;
import dev.layerfold.dedup.codec.recipe.RestartPoint;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.zip.CRC32;

/**
 * Encodes a gzip member with restart points on a {@link SegmentPool}: the input, as it arrives, is
 * cut at the points; each segment (with the 32 KiB before it) is encoded on a pool thread from its
 * rebuilt state, and the segments' bytes go out in order, each as soon as it and those before it are
 * done, so the first bytes leave when the first segment is ready. Every segment's bytes are checked
 * against the digest its point records before they go out, and, for a whole member, the CRC-32
 * combined from the segments' against the trailer's; a damaged recipe fails here, never reaching a
 * client as a whole response. Not thread-safe (one restore's thread drives it).
 */
public final class ParallelMember implements DeflateEncoder {

    private record Segment(int index, byte[] buffer, int historyLength, boolean last) {
    }

    private record Encoded(byte[] bytes, long crc, long inputLength) {
    }

    private final GzipMember member;
    private final List<RestartPoint> points;
    private final SegmentPool pool;
    private final OutputStream out;
    private final Deque<FutureTask<Encoded>> inFlight = new ArrayDeque<>();
    private final boolean wholeMember;
    private final int first;
    private int next;
    private byte[] buffer;
    private int historyLength;
    private int filled;
    private byte[] history;
    private int historyFilled;
    private long crc;
    private boolean reserved;

    /**
     * @param first the point to start at (0: the member's start); the input written must start at
     *              {@link #inputStart(RestartPoint)}, the history the point's rebuilt state reads
     */
    public ParallelMember(GzipMember member, int first, SegmentPool pool, OutputStream out) {
        if (first < 0 || first >= member.restartPoints().size()) {
            throw new IllegalArgumentException("this member has no restart point " + first);
        }
        this.member = member;
        this.points = member.restartPoints();
        this.pool = pool;
        this.out = out;
        this.next = first;
        this.first = first;
        this.wholeMember = first == 0;
        this.history = new byte[(int) (points.get(first).inputOffset() - inputStart(points.get(first)))];
    }

    /** Where in the member's input the bytes written must start to resume at {@code point}: the history its state reads. */
    public static long inputStart(RestartPoint point) {
        return point.inputOffset() - Math.min(RestartableEncoders.HISTORY, point.inputOffset());
    }

    @Override
    public void write(byte[] data, int offset, int length) throws IOException {
        if (historyFilled < history.length && next == first) {
            int n = Math.min(length, history.length - historyFilled);
            System.arraycopy(data, offset, history, historyFilled, n);
            historyFilled += n;
            offset += n;
            length -= n;
        }
        while (length > 0) {
            if (buffer == null) {
                if (next >= points.size()) {
                    throw new LayerRebuildException("the tar stream holds more bytes than the gzip member's " + member.uncompressedSize());
                }
                startSegment();
            }
            int n = Math.min(length, buffer.length - filled);
            System.arraycopy(data, offset, buffer, filled, n);
            filled += n;
            offset += n;
            length -= n;
            if (filled == buffer.length) {
                submit();
            }
        }
        writeFinished();
    }

    @Override
    public void finish() throws IOException {
        if (buffer != null || next < points.size()) {
            throw new LayerRebuildException("the tar stream ends inside the gzip member's segment " + next);
        }
        while (!inFlight.isEmpty()) {
            writeHead();
        }
        if (wholeMember && crc != trailerCrc()) {
            throw new LayerRebuildException(String.format("the segments' combined CRC-32 %08x differs from the gzip trailer's %08x", crc, trailerCrc()));
        }
    }

    /** Drops the segments under way (the restore failed or its clients left) and gives their buffers back. */
    public void abort() {
        for (FutureTask<Encoded> task : inFlight) {
            task.cancel(false);
            pool.release();
        }
        inFlight.clear();
        if (reserved) {
            reserved = false;
            pool.release();
        }
        buffer = null;
    }

    private void startSegment() throws IOException {
        while (!pool.tryReserve()) {
            if (!inFlight.isEmpty()) {
                writeHead();
            } else {
                try {
                    pool.reserve();
                    break;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while waiting for a segment buffer");
                }
            }
        }
        reserved = true;
        RestartPoint point = points.get(next);
        long end = next + 1 < points.size() ? points.get(next + 1).inputOffset() : member.uncompressedSize();
        historyLength = history.length;
        buffer = new byte[Math.toIntExact(historyLength + end - point.inputOffset())];
        System.arraycopy(history, 0, buffer, 0, historyLength);
        filled = historyLength;
    }

    private void submit() throws IOException {
        Segment segment = new Segment(next, buffer, historyLength, next + 1 == points.size());
        history = Arrays.copyOfRange(buffer, Math.max(0, buffer.length - RestartableEncoders.HISTORY), buffer.length);
        buffer = null;
        reserved = false;
        next++;
        FutureTask<Encoded> task = new FutureTask<>(() -> encode(segment));
        inFlight.add(task);
        try {
            pool.executor().execute(task);
        } catch (RejectedExecutionException e) {
            // The pool is shutting down; writeHead() encodes the segment on this thread.
        }
        while (inFlight.size() >= pool.perRestore()) {
            writeHead();
        }
    }

    private void writeFinished() throws IOException {
        while (!inFlight.isEmpty() && inFlight.peekFirst().isDone()) {
            writeHead();
        }
    }

    /**
     * Writes the oldest segment, encoding it on this thread if no pool thread has taken it yet; while a
     * pool thread encodes it, this thread encodes later segments nobody has taken rather than wait.
     */
    private void writeHead() throws IOException {
        FutureTask<Encoded> task = inFlight.removeFirst();
        task.run();
        for (FutureTask<Encoded> later : inFlight) {
            if (task.isDone()) {
                break;
            }
            later.run();
        }
        Encoded encoded;
        try {
            encoded = task.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for a segment");
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io
                    : new LayerRebuildException("segment could not be encoded from its restart point: " + e.getCause().getMessage(), e.getCause());
        } finally {
            pool.release();
        }
        out.write(encoded.bytes());
        crc = Crc32Combine.combine(crc, encoded.crc(), encoded.inputLength());
    }

    private Encoded encode(Segment segment) throws IOException {
        RestartPoint point = points.get(segment.index());
        int inputLength = segment.buffer().length - segment.historyLength();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(Math.max(1024, inputLength / 2));
        SegmentEncoder encoder = RestartableEncoders.open(member.encoder(), point, segment.buffer(), 0, segment.historyLength(), bytes);
        encoder.write(segment.buffer(), segment.historyLength(), inputLength);
        if (segment.last()) {
            encoder.finish();
        } else {
            encoder.endAtRestartPoint();
        }
        byte[] encoded = bytes.toByteArray();
        if (!segment.last() && encoded.length != points.get(segment.index() + 1).outputByteOffset() - point.outputByteOffset()) {
            throw new LayerRebuildException("segment " + segment.index() + " encoded to " + encoded.length + " bytes, but its restart points are "
                    + (points.get(segment.index() + 1).outputByteOffset() - point.outputByteOffset()) + " bytes apart: the recipe is damaged");
        }
        if (!Arrays.equals(sha256(encoded), point.segmentSha256())) {
            throw new LayerRebuildException("segment " + segment.index() + " (from input offset " + point.inputOffset()
                    + ") did not encode to the bytes its restart point records: the recipe is damaged or the point was not verified");
        }
        CRC32 segmentCrc = new CRC32();
        segmentCrc.update(segment.buffer(), segment.historyLength(), inputLength);
        return new Encoded(encoded, segmentCrc.getValue(), inputLength);
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
