package dev.layerfold.dedup.codec.restart;

import dev.layerfold.dedup.codec.io.LayerRebuildException;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;

/**
 * Encodes a stream with restart points on a {@link SegmentPool}: the input, as it arrives, is cut at
 * the points; each segment (with the history before it its state reads, and the input after it its
 * encoder looks ahead at) is encoded on a pool thread from its rebuilt state, and the segments go out
 * in order ({@link InOrderSegments}), each as soon as it and those before it are done, so the first
 * bytes leave when the first segment is ready. What a segment is and how it goes out is the subclass's: a gzip member's
 * ({@link ParallelMember}) or a zstd frame's ({@code zstd.ParallelFrame}). Not thread-safe (one restore's
 * thread drives it).
 *
 * @param <E> an encoded segment
 */
public abstract class ParallelSegments<E> {

    /** A segment's bytes to encode: its history, its input, then the input its encoder may look ahead at. */
    public record Segment(int index, byte[] buffer, int historyLength, int inputLength, boolean last) {
    }

    /** Input received, by reference: a segment's own input, or a write's before the first point; immutable once here. */
    private record Received(long start, byte[] bytes, int offset, int length) {
        long end() {
            return start + length;
        }
    }

    private final long[] points;
    private final long size;
    private final InOrderSegments<E> inFlight;
    private final int lookahead;
    private final String stream;
    private int next;
    /**
     * The segment under way: room for its history, which its encoding task copies in, then its input
     * and lookahead, which this thread writes from {@link #historyLength} on.
     */
    private byte[] buffer;
    private int historyLength;
    private int filled;
    /**
     * The input received that the next segments' histories and lookahead may need, oldest first: held
     * by reference, so that the restore's thread copies each byte once, into its own segment, and the
     * pool threads copy the histories (megabytes for a zstd frame's window, against kilobytes of input).
     */
    private final Deque<Received> received = new ArrayDeque<>();
    /** The input offset up to which input was received. */
    private long receivedEnd;
    /** The index of the next segment to go out. */
    private int emitted;

    /**
     * @param points    the points' input offsets, ascending, the first 0
     * @param size      the stream's input size
     * @param first     the point to start at
     * @param firstInputStart where the input written starts: {@link #inputStart} of the first point
     * @param lookahead how far past its end a segment's encoder may read
     * @param stream    what the stream is, for messages
     */
    protected ParallelSegments(long[] points, long size, int first, long firstInputStart, SegmentPool pool, int lookahead, String stream) {
        if (first < 0 || first >= points.length) {
            throw new IllegalArgumentException("this " + stream + " has no restart point " + first);
        }
        this.points = points;
        this.size = size;
        this.inFlight = new InOrderSegments<>(pool, encoded -> emit(emitted++, encoded));
        this.next = first;
        this.emitted = first;
        this.lookahead = lookahead;
        this.stream = stream;
        this.receivedEnd = firstInputStart;
    }

    /** Where the input segment {@code index} needs starts: its point, less the history its rebuilt state reads. */
    protected abstract long inputStart(int index);

    /** Encodes a segment, on any thread; checks it against its point's digest. */
    protected abstract E encode(Segment segment) throws IOException;

    /** Writes a segment encoded, on the restore's thread, in order. */
    protected abstract void emit(int index, E encoded) throws IOException;

    public void write(byte[] data, int offset, int length) throws IOException {
        while (length > 0) {
            if (buffer == null) {
                if (next >= points.length) {
                    throw new LayerRebuildException("the tar stream holds more bytes than the " + stream + "'s " + size);
                }
                if (!startSegment()) {
                    // Still reading the history before the first point.
                    int n = (int) Math.min(length, points[next] - receivedEnd);
                    received.add(new Received(receivedEnd, Arrays.copyOfRange(data, offset, offset + n), 0, n));
                    receivedEnd += n;
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

    /** The input reached the stream's end: writes the segments still under way and checks what can only be checked whole. */
    public abstract void finish() throws IOException;

    /** Writes the segments still under way; fails if the input did not reach the stream's end. */
    protected final void finishSegments() throws IOException {
        if (buffer != null || next < points.length) {
            throw new LayerRebuildException("the tar stream ends inside the " + stream + "'s segment " + next);
        }
        inFlight.finish();
    }

    /** Drops the segments under way (the restore failed or its clients left) and gives their buffers back. */
    public final void abort() {
        inFlight.abort();
        buffer = null;
    }

    /**
     * Starts the next segment's buffer with the input already received past its point (the segment
     * before looked ahead at it); false (and no buffer) while the history before the first point is
     * not all received.
     */
    private boolean startSegment() throws IOException {
        if (receivedEnd < points[next]) {
            return false;
        }
        inFlight.reserve();
        long bufferStart = inputStart(next);
        long end = next + 1 < points.length ? Math.min(points[next + 1] + lookahead, size) : size;
        historyLength = Math.toIntExact(points[next] - bufferStart);
        buffer = new byte[Math.toIntExact(end - bufferStart)];
        int lookedAhead = Math.toIntExact(Math.min(receivedEnd, end) - points[next]);
        copy(received, points[next], buffer, historyLength, lookedAhead);
        filled = historyLength + lookedAhead;
        return true;
    }

    /** Submits the segment under way if its buffer is full, and those after it that what it holds fills too. */
    private void submitFull() throws IOException {
        while (buffer != null && filled == buffer.length) {
            submit();
            if (next < points.length) {
                startSegment();
            }
        }
    }

    private void submit() throws IOException {
        boolean last = next + 1 == points.length;
        long end = last ? size : points[next + 1];
        long point = points[next];
        byte[] segmentBuffer = buffer;
        int history = historyLength;
        // The history, by reference to input that no one writes any more; the task copies it in.
        List<Received> before = received.stream().filter(r -> r.end() > point - history && r.start() < point).toList();
        Segment segment = new Segment(next, segmentBuffer, history, (int) (end - point), last);
        received.add(new Received(point, segmentBuffer, history, segmentBuffer.length - history));
        receivedEnd = point + segmentBuffer.length - history;
        buffer = null;
        next++;
        if (next < points.length) {
            long needed = Math.min(inputStart(next), points[next]);
            while (!received.isEmpty() && received.peekFirst().end() <= needed) {
                received.removeFirst();
            }
        }
        inFlight.submit(() -> {
            copy(before, point - history, segmentBuffer, 0, history);
            return encode(segment);
        });
    }

    /** Copies into {@code to} at {@code at} the {@code length} bytes of input from offset {@code from} on that {@code parts} hold. */
    private static void copy(Iterable<Received> parts, long from, byte[] to, int at, int length) {
        long end = from + length;
        for (Received r : parts) {
            long start = Math.max(from, r.start());
            long stop = Math.min(end, r.end());
            if (start < stop) {
                System.arraycopy(r.bytes(), r.offset() + (int) (start - r.start()), to, at + (int) (start - from), (int) (stop - start));
            }
        }
    }
}
