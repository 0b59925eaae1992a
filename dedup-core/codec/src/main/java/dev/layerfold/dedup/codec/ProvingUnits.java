package dev.layerfold.dedup.codec;

import dev.layerfold.dedup.codec.io.VerifyingOutput;
import dev.layerfold.dedup.codec.recipe.UnitPoint;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * Takes the tar stream of a layer cut into units ({@link FrameUnits#cut}) and writes the blob, each
 * unit encoded alone as a restore encodes it, and adds each unit's point, where its bytes start and
 * their sha256, to a list as the unit ends. They hold once the whole blob matched the original's sha256.
 */
final class ProvingUnits extends ContainerFramer {

    private final FrameUnits units;
    private final List<Integer> firsts;
    private final OutputStream blob;
    private final List<UnitPoint> points;
    private long unitStart;
    private VerifyingOutput unitBytes;
    private ContainerFramer framer;

    /** @param points where the units' points are added, in order */
    ProvingUnits(FrameUnits units, List<Integer> firsts, OutputStream blob, List<UnitPoint> points) {
        super("independent units");
        this.units = units;
        this.firsts = firsts;
        this.blob = blob;
        this.points = points;
    }

    @Override
    long open(int unit) {
        if (unit >= firsts.size()) {
            return -1;
        }
        int end = unit + 1 < firsts.size() ? firsts.get(unit + 1) : units.pieces();
        unitBytes = new VerifyingOutput(blob);
        framer = units.framer(firsts.get(unit), end, unitBytes);
        return units.tarSize(firsts.get(unit), end);
    }

    @Override
    void encode(byte[] data, int offset, int length) throws IOException {
        framer.write(data, offset, length);
    }

    @Override
    void close(int unit) throws IOException {
        framer.finish();
        framer = null;
        points.add(new UnitPoint(firsts.get(unit), unitStart, unitBytes.sha256SinceLast()));
        unitStart += unitBytes.size();
    }

    @Override
    void abort() {
        if (framer != null) {
            framer.abort();
        }
    }
}
