package dev.layerfold.dedup.codec;

import dev.layerfold.dedup.codec.io.LayerRebuildException;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Takes the rebuilt tar stream and hands each container unit (a gzip member, a zstd frame) its share
 * of it, in order: the unit's own framing and encoder are the subclass's. Units that hold no tar
 * bytes are opened and closed in turn all the same, so their framing is written where it stood.
 */
abstract class ContainerFramer extends OutputStream {

    private final String units;
    private int unit = -1;
    private long remaining;
    private boolean open;

    /** @param units what the units are called in messages, e.g. "gzip members" */
    ContainerFramer(String units) {
        this.units = units;
    }

    /** Opens unit {@code index} (writing what precedes its content); returns how many tar bytes it holds, or -1 if there is none. */
    abstract long open(int index) throws IOException;

    /** Encodes tar bytes of the open unit. */
    abstract void encode(byte[] data, int offset, int length) throws IOException;

    /** Closes the open unit (writing what follows its content). */
    abstract void close(int index) throws IOException;

    /** Gives back what the unit under way holds, after a failure. */
    abstract void abort();

    @Override
    public final void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public final void write(byte[] data, int offset, int length) throws IOException {
        while (length > 0) {
            while (remaining == 0) {
                closeUnit();
                if (!openNextUnit()) {
                    throw new LayerRebuildException("the tar skeleton holds more bytes than the " + units);
                }
            }
            int n = (int) Math.min(length, remaining);
            encode(data, offset, n);
            remaining -= n;
            offset += n;
            length -= n;
        }
    }

    /** Closes the open unit and opens and closes the units left, which must hold no tar bytes. */
    final void finish() throws IOException {
        do {
            if (remaining > 0) {
                throw new LayerRebuildException("the tar skeleton ends " + remaining + " bytes short of the content of unit " + unit
                        + " of the " + units);
            }
            closeUnit();
        } while (openNextUnit());
    }

    private void closeUnit() throws IOException {
        if (open) {
            open = false;
            close(unit);
        }
    }

    private boolean openNextUnit() throws IOException {
        long size = open(unit + 1);
        if (size < 0) {
            return false;
        }
        unit++;
        open = true;
        remaining = size;
        return true;
    }
}
