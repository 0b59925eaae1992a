package dev.layerfold.dedup.codec.deflate.zlib;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A sequence of zlib calls, run both on the system zlib (through {@code zlib_reference.py}) and on
 * {@link ZlibEncoder}, so the two outputs can be compared.
 */
final class ZlibScript {

    private sealed interface Op permits Deflate, Params, Dictionary, Reset, Prime, Pending {
    }

    private record Deflate(byte[] data, ZlibFlush flush) implements Op {
    }

    private record Params(int level, ZlibStrategy strategy) implements Op {
    }

    private record Dictionary(byte[] data) implements Op {
    }

    private record Reset() implements Op {
    }

    private record Prime(int bits, int value) implements Op {
    }

    private record Pending() implements Op {
    }

    private final ZlibSettings settings;
    private final List<Op> ops = new ArrayList<>();

    ZlibScript(ZlibSettings settings) {
        this.settings = settings;
    }

    /** One deflate() call over all of {@code data} with {@code flush}. */
    ZlibScript deflate(byte[] data, ZlibFlush flush) {
        ops.add(new Deflate(data, flush));
        return this;
    }

    ZlibScript params(int level, ZlibStrategy strategy) {
        ops.add(new Params(level, strategy));
        return this;
    }

    ZlibScript dictionary(byte[] data) {
        ops.add(new Dictionary(data));
        return this;
    }

    ZlibScript reset() {
        ops.add(new Reset());
        return this;
    }

    ZlibScript prime(int bits, int value) {
        ops.add(new Prime(bits, value));
        return this;
    }

    /** deflatePending(): its bit count is appended to the output as one byte, on both sides. */
    ZlibScript pending() {
        ops.add(new Pending());
        return this;
    }

    /** The request {@code zlib_reference.py} reads. */
    byte[] encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte('I');
            out.writeInt(settings.level());
            out.writeInt(settings.memLevel());
            out.writeInt(settings.windowBits());
            out.writeInt(settings.strategy().zlibValue());
            for (Op op : ops) {
                switch (op) {
                    case Deflate d -> {
                        out.writeByte('D');
                        out.writeInt(d.flush().ordinal());
                        out.writeInt(d.data().length);
                        out.write(d.data());
                    }
                    case Params p -> {
                        out.writeByte('P');
                        out.writeInt(p.level());
                        out.writeInt(p.strategy().zlibValue());
                    }
                    case Dictionary s -> {
                        out.writeByte('S');
                        out.writeInt(s.data().length);
                        out.write(s.data());
                    }
                    case Reset r -> out.writeByte('R');
                    case Prime b -> {
                        out.writeByte('B');
                        out.writeInt(b.bits());
                        out.writeInt(b.value());
                    }
                    case Pending q -> out.writeByte('Q');
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** Runs the script on {@link ZlibEncoder}, handing it each deflate() input in writes of {@code chunk}. */
    byte[] runOnPort(int chunk) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ZlibEncoder encoder = ZlibEncoder.create(out, settings);
        for (Op op : ops) {
            switch (op) {
                case Deflate d -> {
                    for (int i = 0, n; i < d.data().length; i += n) {
                        n = Math.min(chunk, d.data().length - i);
                        encoder.write(d.data(), i, n);
                    }
                    if (d.data().length == 0 && d.flush() == ZlibFlush.NO_FLUSH) {
                        // Still one deflate() call: it becomes zlib's last_flush, so a sync flush after it is written again.
                        encoder.write(d.data(), 0, 0);
                    }
                    if (d.flush() != ZlibFlush.NO_FLUSH) {
                        encoder.flush(d.flush());
                    }
                }
                case Params p -> encoder.params(p.level(), p.strategy());
                case Dictionary s -> encoder.setDictionary(s.data(), 0, s.data().length);
                case Reset r -> encoder.reset();
                case Prime b -> encoder.prime(b.bits(), b.value());
                case Pending q -> out.write(encoder.pendingBits());
            }
        }
        return out.toByteArray();
    }

    @Override
    public String toString() {
        return settings + " " + ops.stream().map(op -> switch (op) {
            case Deflate d -> "deflate(" + d.data().length + " bytes, " + d.flush() + ")";
            case Dictionary s -> "dictionary(" + s.data().length + " bytes)";
            default -> op.toString();
        }).toList();
    }

    static byte[] slice(byte[] data, int from, int to) {
        return Arrays.copyOfRange(data, from, to);
    }
}
