package dev.layerfold.dedup.codec;

import dev.layerfold.dedup.codec.io.LayerRebuildException;
import dev.layerfold.dedup.codec.recipe.UnitPoint;
import dev.layerfold.dedup.codec.restart.InOrderSegments;
import dev.layerfold.dedup.codec.restart.SegmentPool;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;

/**
 * Takes the tar stream of a layer with unit points, from the start of one of its units, and writes
 * the blob's bytes from there: each unit's tar, as it arrives, is encoded alone on a
 * {@link SegmentPool} thread ({@link FrameUnits#framer}, an encoder of its own), and the units' bytes
 * go out in order ({@link InOrderSegments}), each checked against its point's size and sha256
 * before it is written: a damaged recipe fails here, never reaching a client as a whole response.
 * Not thread-safe (one restore's thread drives it).
 */
final class ParallelUnits extends ContainerFramer {

    private final FrameUnits units;
    private final List<UnitPoint> points;
    private final int firstUnit;
    private final InOrderSegments<byte[]> inFlight;
    private byte[] tar;
    private int filled;

    /** @param firstUnit the unit to start at: the tar written must start at its first member's or frame's */
    ParallelUnits(FrameUnits units, List<UnitPoint> points, int firstUnit, SegmentPool pool, OutputStream out) {
        super("independent units");
        this.units = units;
        this.points = points;
        this.firstUnit = firstUnit;
        this.inFlight = new InOrderSegments<>(pool, out::write);
    }

    @Override
    long open(int index) throws IOException {
        int unit = firstUnit + index;
        if (unit >= points.size()) {
            return -1;
        }
        inFlight.reserve();
        tar = new byte[Math.toIntExact(units.tarSize(points.get(unit).first(), units.end(points, unit)))];
        filled = 0;
        return tar.length;
    }

    @Override
    void encode(byte[] data, int offset, int length) throws IOException {
        System.arraycopy(data, offset, tar, filled, length);
        filled += length;
        inFlight.writeFinished();
    }

    /** Hands the unit to the pool; after the last unit, writes those still under way. */
    @Override
    void close(int index) throws IOException {
        int unit = firstUnit + index;
        byte[] input = tar;
        tar = null;
        inFlight.submit(() -> encode(unit, input));
        if (unit + 1 == points.size()) {
            inFlight.finish();
        }
    }

    @Override
    void abort() {
        inFlight.abort();
        tar = null;
    }

    private byte[] encode(int unit, byte[] input) throws IOException {
        UnitPoint point = points.get(unit);
        long expected = units.blobSize(points, unit);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(Math.max(1024, input.length / 2));
        ContainerFramer framer = units.framer(point.first(), units.end(points, unit), bytes);
        try {
            framer.write(input);
            framer.finish();
        } catch (IOException | RuntimeException e) {
            framer.abort();
            throw e;
        }
        byte[] encoded = bytes.toByteArray();
        if (encoded.length != expected || !point.matches(sha256(encoded))) {
            throw new LayerRebuildException("unit " + unit + " (from member or frame " + point.first() + ") did not encode to the " + expected
                    + " bytes its point records (got " + encoded.length + "): the recipe is damaged or the point was not verified");
        }
        return encoded;
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
