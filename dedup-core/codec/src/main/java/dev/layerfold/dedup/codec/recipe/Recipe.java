package dev.layerfold.dedup.codec.recipe;


import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.LongStream;

/**
 * How to rebuild one layer blob byte for byte: the blob's sha256 and size, its container framing
 * (gzip members with their headers, encoders and trailers, or zstd frames, and any bytes after the
 * last member or frame), and the tar skeleton. The binary form is documented in
 * {@code docs/recipe-format.md}.
 *
 * @param blobSha256     the original blob's sha256, 64 lowercase hex digits
 * @param format         {@link LayerFormat#TAR} (no container), {@link LayerFormat#GZIP} or {@link LayerFormat#ZSTD}
 * @param members        the gzip members in order; empty unless gzip
 * @param trailingBytes  bytes after the last gzip member or zstd frame, verbatim
 * @param frames         the zstd frames in order; empty unless zstd
 * @param units          where the independent units of a layer of several gzip members or zstd frames start
 *                       ({@link UnitPoint}): none, or the first member's or frame's and at least one more
 */
public record Recipe(String blobSha256, long blobSize, LayerFormat format, List<GzipMember> members, byte[] trailingBytes,
                     Skeleton skeleton, List<ZstdFrame> frames, List<UnitPoint> units) {

    /** The klauspost zstd family and its SpeedBetter level (KlauspostSettings's): named here so a recipe knows no encoder. */
    static final String KLAUSPOST_ZSTD = "klauspost-zstd";
    static final int KLAUSPOST_SPEED_BETTER = 3;
    static final byte[] MAGIC = {'L', 'F', 'R', 'C'};
    /**
     * Version 2 added restart points; version 1 recipes read as members without any. Version 3 added
     * zstd layers, and only they are written as version 3, so that processes of the previous release
     * still read every gzip and tar recipe while both run. Version 4 added flush points to zstd
     * frames, and only zstd layers with one (zstd:chunked's) are written as version 4, for the same
     * reason; version 3 recipes read as frames without any. Version 5 added unit points, and only
     * recipes with some are written as version 5; older ones read as layers without any. Version 6
     * added restart points to klauspost zstd frames, and only zstd layers with one are written as
     * version 6; earlier ones read as frames without any. Version 7 has version 6's layout, and is
     * written only for layers whose frame with restart points is libzstd's (jobs of a frame written
     * with worker threads, whose points may lie in a frame without a checksum): a release before
     * would take such points for klauspost's, and refuses the recipe rather than failing its restore.
     * Version 8 has version 6's layout too, and is written only for layers whose klauspost frame at
     * SpeedBetterCompression or SpeedBestCompression (the levels whose tables hold buckets) has restart
     * points, whose patches a release before cannot read: buckets of two positions, and index records.
     */
    public static final int VERSION = 8;
    private static final int ZSTD_VERSION = 3;
    private static final int GZIP_VERSION = 2;
    private static final int FLUSH_POINTS_VERSION = 4;
    private static final int UNITS_VERSION = 5;
    private static final int ZSTD_RESTART_POINTS_VERSION = 6;
    private static final int LIBZSTD_RESTART_POINTS_VERSION = 7;
    private static final int BUCKET_LEVELS_VERSION = 8;
    private static final int FIRST_VERSION = 1;
    private static final int MAX_RESTART_POINTS = 1 << 20;
    /** Bytes after the last gzip member the recipe keeps; more and the layer is not split. */
    public static final int MAX_TRAILING_BYTES = 1 << 20;
    private static final int MAX_HEADER = 1 << 20;
    private static final int MAX_MEMBERS = 1 << 20;
    /** The largest skippable frame a recipe keeps (zstd:chunked's table of contents is one); a layer with a larger one is not split. */
    public static final int MAX_SKIPPABLE_FRAME = 16 << 20;
    /** 3 bytes per block of at most 128 KiB: a layer of 1 TiB of tar. */
    private static final int MAX_BLOCK_HEADERS = 24 << 20;
    /** A flush point per block at most. */
    private static final int MAX_FLUSH_POINTS = MAX_BLOCK_HEADERS / 3;
    private static final HexFormat HEX = HexFormat.of();

    /** A plain tar or gzip layer's recipe. */
    public Recipe(String blobSha256, long blobSize, LayerFormat format, List<GzipMember> members, byte[] trailingBytes, Skeleton skeleton) {
        this(blobSha256, blobSize, format, members, trailingBytes, skeleton, List.of());
    }

    /** A recipe without unit points. */
    public Recipe(String blobSha256, long blobSize, LayerFormat format, List<GzipMember> members, byte[] trailingBytes, Skeleton skeleton,
                  List<ZstdFrame> frames) {
        this(blobSha256, blobSize, format, members, trailingBytes, skeleton, frames, List.of());
    }

    public Recipe {
        HEX.parseHex(blobSha256);
        if (blobSha256.length() != 64) {
            throw new IllegalArgumentException("blob sha256 must be 64 hex digits");
        }
        if (format == LayerFormat.TAR && (!members.isEmpty() || trailingBytes.length > 0)) {
            throw new IllegalArgumentException("a plain tar layer has no gzip members nor trailing bytes");
        }
        if (format != LayerFormat.GZIP && !members.isEmpty() || format != LayerFormat.ZSTD && !frames.isEmpty()) {
            throw new IllegalArgumentException("a " + format + " layer has no " + (members.isEmpty() ? "zstd frames" : "gzip members"));
        }
        long framed = members.stream().mapToLong(GzipMember::uncompressedSize).sum() + frames.stream().mapToLong(ZstdFrame::contentSize).sum();
        if (format != LayerFormat.TAR && framed != skeleton.tarSize()) {
            throw new IllegalArgumentException(format + " container holds " + framed + " bytes but the tar skeleton describes " + skeleton.tarSize());
        }
        members = List.copyOf(members);
        frames = List.copyOf(frames);
        units = List.copyOf(units);
        checkUnits(units, members.isEmpty() ? frames.stream().map(ZstdFrame::contentSize).toList()
                : members.stream().map(GzipMember::uncompressedSize).toList(), blobSize - trailingBytes.length);
        trailingBytes = trailingBytes.clone();
    }

    /** This recipe with {@code units} as its unit points. */
    public Recipe withUnits(List<UnitPoint> units) {
        return new Recipe(blobSha256, blobSize, format, members, trailingBytes, skeleton, frames, units);
    }

    /**
     * Units start at the first member or frame and the blob's start, and each later one after the one
     * before, in both; a unit holds at most {@link GzipMember#MAX_SEGMENT_INPUT} bytes of tar, as a
     * restore buffers one unit's input and output per thread.
     */
    private static void checkUnits(List<UnitPoint> units, List<Long> pieceSizes, long framedEnd) {
        if (units.isEmpty()) {
            return;
        }
        if (units.size() < 2 || units.getFirst().first() != 0 || units.getFirst().blobOffset() != 0) {
            throw new IllegalArgumentException("unit points start at the first member or frame and name at least one more");
        }
        for (int i = 0; i < units.size(); i++) {
            UnitPoint unit = units.get(i);
            int end = i + 1 < units.size() ? units.get(i + 1).first() : pieceSizes.size();
            long blobEnd = i + 1 < units.size() ? units.get(i + 1).blobOffset() : framedEnd;
            if (end <= unit.first() || end > pieceSizes.size() || blobEnd <= unit.blobOffset()) {
                throw new IllegalArgumentException("unit " + i + " does not end after it starts, within the layer's members or frames");
            }
            if (pieceSizes.subList(unit.first(), end).stream().mapToLong(Long::longValue).sum() > GzipMember.MAX_SEGMENT_INPUT) {
                throw new IllegalArgumentException("unit " + i + " holds more than " + GzipMember.MAX_SEGMENT_INPUT + " bytes of tar");
            }
        }
    }

    /** True if every gzip member and zstd frame has an encoder that reproduces it (always true for a plain tar). */
    public boolean reproducible() {
        return members.stream().noneMatch(m -> m.encoder().isNone())
                && frames.stream().noneMatch(f -> f instanceof ZstdFrame.Compressed c && c.encoder().isNone());
    }

    @Override
    public byte[] trailingBytes() {
        return trailingBytes.clone();
    }

    public void write(OutputStream out) throws IOException {
        out.write(MAGIC);
        int version = writtenVersion();
        out.write(version);
        out.write(HEX.parseHex(blobSha256));
        Varints.write(out, blobSize);
        out.write(format.ordinal());
        Varints.write(out, skeleton.tarSize());
        Varints.write(out, skeleton.fileCount());
        Varints.write(out, skeleton.fileBytes());
        if (format == LayerFormat.GZIP) {
            Varints.write(out, members.size());
            for (GzipMember member : members) {
                writeBytes(out, member.header());
                writeEncoder(out, member.encoder());
                Varints.write(out, member.uncompressedSize());
                out.write(member.trailer());
                writeRestartPoints(out, member.restartPoints());
            }
            writeBytes(out, trailingBytes);
        }
        if (format == LayerFormat.ZSTD) {
            writeFrames(out, version);
            writeBytes(out, trailingBytes);
        }
        writeBytes(out, skeleton.compressedOps());
        if (version >= UNITS_VERSION) {
            writeUnits(out, units);
        }
    }

    /** The oldest version that holds this recipe: what processes of earlier releases can still read. */
    private int writtenVersion() {
        if (frames.stream().anyMatch(f -> f instanceof ZstdFrame.Compressed c && !c.restartPoints().isEmpty()
                && c.encoder().family().equals(KLAUSPOST_ZSTD) && c.encoder().level() >= KLAUSPOST_SPEED_BETTER)) {
            return BUCKET_LEVELS_VERSION;
        }
        if (frames.stream().anyMatch(f -> f instanceof ZstdFrame.Compressed c && !c.restartPoints().isEmpty()
                && !c.encoder().family().equals(KLAUSPOST_ZSTD))) {
            return LIBZSTD_RESTART_POINTS_VERSION;
        }
        if (frames.stream().anyMatch(f -> f instanceof ZstdFrame.Compressed c && !c.restartPoints().isEmpty())) {
            return ZSTD_RESTART_POINTS_VERSION;
        }
        if (!units.isEmpty()) {
            return UNITS_VERSION;
        }
        if (format != LayerFormat.ZSTD) {
            return GZIP_VERSION;
        }
        boolean flushed = frames.stream().anyMatch(f -> f instanceof ZstdFrame.Compressed c && c.flushPoints().length > 0);
        return flushed ? FLUSH_POINTS_VERSION : ZSTD_VERSION;
    }

    public byte[] toBytes() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            write(out);
        } catch (IOException e) {
            throw new AssertionError("a byte array stream does not fail", e);
        }
        return out.toByteArray();
    }

    /** Reads a recipe; fails with a message naming the problem if the bytes are not a recipe of a version this build reads. */
    public static Recipe read(InputStream input) throws IOException {
        DataInputStream in = new DataInputStream(input);
        try {
            byte[] magic = new byte[4];
            in.readFully(magic);
            if (!Arrays.equals(magic, MAGIC)) {
                throw new IOException("not a Layerfold recipe (magic " + HEX.formatHex(magic) + ")");
            }
            int version = in.readUnsignedByte();
            if (version < FIRST_VERSION || version > VERSION) {
                throw new IOException("recipe version " + version + " is not supported (this build reads versions " + FIRST_VERSION + " to "
                        + VERSION + ")");
            }
            byte[] sha = new byte[32];
            in.readFully(sha);
            long blobSize = Varints.read(in);
            int formatCode = in.readUnsignedByte();
            if (formatCode > (version >= 3 ? 2 : 1)) {
                throw new IOException("recipe names an unknown container format " + formatCode);
            }
            LayerFormat format = LayerFormat.values()[formatCode];
            long tarSize = Varints.read(in);
            int fileCount = Varints.readInt(in, Integer.MAX_VALUE, "file count");
            long fileBytes = Varints.read(in);
            List<GzipMember> members = new ArrayList<>();
            byte[] trailing = new byte[0];
            if (format == LayerFormat.GZIP) {
                int count = Varints.readInt(in, MAX_MEMBERS, "gzip member count");
                for (int i = 0; i < count; i++) {
                    byte[] header = readBytes(in, MAX_HEADER, "gzip header length");
                    EncoderSpec encoder = readEncoder(in);
                    long uncompressed = Varints.read(in);
                    byte[] trailer = new byte[GzipMember.TRAILER_SIZE];
                    in.readFully(trailer);
                    List<RestartPoint> points = version >= 2 ? readRestartPoints(in) : List.of();
                    members.add(new GzipMember(header, encoder, uncompressed, trailer, points));
                }
                trailing = readBytes(in, MAX_TRAILING_BYTES, "trailing byte count");
            }
            List<ZstdFrame> frames = List.of();
            if (format == LayerFormat.ZSTD) {
                frames = readFrames(in, version);
                trailing = readBytes(in, MAX_TRAILING_BYTES, "trailing byte count");
            }
            byte[] ops = readBytes(in, Skeleton.MAX_COMPRESSED_OPS, "skeleton length");
            List<UnitPoint> units = version >= UNITS_VERSION ? readUnits(in) : List.of();
            return new Recipe(HEX.formatHex(sha), blobSize, format, members, trailing, new Skeleton(ops, tarSize, fileCount, fileBytes), frames,
                    units);
        } catch (EOFException e) {
            throw new IOException("recipe is truncated", e);
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new IOException("recipe is inconsistent: " + e.getMessage(), e);
        }
    }

    private static final int COMPRESSED_FRAME = 0;
    private static final int SKIPPABLE_FRAME = 1;

    private void writeFrames(OutputStream out, int version) throws IOException {
        Varints.write(out, frames.size());
        for (ZstdFrame frame : frames) {
            switch (frame) {
                case ZstdFrame.Compressed c -> {
                    out.write(COMPRESSED_FRAME);
                    writeBytes(out, c.header());
                    writeEncoder(out, c.encoder());
                    Varints.write(out, c.contentSize());
                    writeBytes(out, c.blockHeaders());
                    writeBytes(out, c.checksum());
                    if (version >= FLUSH_POINTS_VERSION) {
                        writeFlushPoints(out, c.flushPoints());
                    }
                    if (version >= ZSTD_RESTART_POINTS_VERSION) {
                        writeZstdRestartPoints(out, c.restartPoints());
                    }
                }
                case ZstdFrame.Skippable s -> {
                    out.write(SKIPPABLE_FRAME);
                    writeBytes(out, s.frame());
                }
            }
        }
    }

    private static List<ZstdFrame> readFrames(DataInputStream in, int version) throws IOException {
        int count = Varints.readInt(in, MAX_MEMBERS, "zstd frame count");
        List<ZstdFrame> frames = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int kind = in.readUnsignedByte();
            frames.add(switch (kind) {
                case COMPRESSED_FRAME -> new ZstdFrame.Compressed(readBytes(in, MAX_HEADER, "zstd frame header length"), readEncoder(in),
                        Varints.read(in), readBytes(in, MAX_BLOCK_HEADERS, "zstd block headers length"), readBytes(in, 4, "zstd checksum length"),
                        version >= FLUSH_POINTS_VERSION ? readFlushPoints(in) : new long[0],
                        version >= ZSTD_RESTART_POINTS_VERSION ? readZstdRestartPoints(in) : List.of());
                case SKIPPABLE_FRAME -> new ZstdFrame.Skippable(readBytes(in, MAX_SKIPPABLE_FRAME, "skippable frame length"));
                default -> throw new IOException("recipe names an unknown zstd frame kind " + kind);
            });
        }
        return frames;
    }

    /** Offsets as deltas from the previous point; each patch as its length and bytes. */
    private static void writeZstdRestartPoints(OutputStream out, List<ZstdRestartPoint> points) throws IOException {
        Varints.write(out, points.size());
        ZstdRestartPoint previous = null;
        for (ZstdRestartPoint point : points) {
            Varints.write(out, point.inputOffset() - (previous == null ? 0 : previous.inputOffset()));
            Varints.write(out, point.outputOffset() - (previous == null ? 0 : previous.outputOffset()));
            writeBytes(out, point.patch());
            out.write(point.segmentSha256());
            previous = point;
        }
    }

    private static List<ZstdRestartPoint> readZstdRestartPoints(DataInputStream in) throws IOException {
        int count = Varints.readInt(in, MAX_RESTART_POINTS, "zstd restart point count");
        List<ZstdRestartPoint> points = new ArrayList<>();
        long input = 0;
        long output = 0;
        for (int i = 0; i < count; i++) {
            input = Math.addExact(input, Varints.read(in));
            output = Math.addExact(output, Varints.read(in));
            byte[] patch = readBytes(in, ZstdRestartPoint.MAX_PATCH, "zstd restart point patch length");
            byte[] sha = new byte[32];
            in.readFully(sha);
            points.add(new ZstdRestartPoint(input, output, patch, sha));
        }
        return points;
    }

    /** As deltas from the previous point (the first from the frame's start): one flush, as zstd:chunked's last frame has, takes a few bytes. */
    private static void writeFlushPoints(OutputStream out, long[] points) throws IOException {
        Varints.write(out, points.length);
        for (int i = 0; i < points.length; i++) {
            Varints.write(out, points[i] - (i == 0 ? 0 : points[i - 1]));
        }
    }

    /** Grows as the points arrive, not as the count claims (see {@link #readBytes}). */
    private static long[] readFlushPoints(DataInputStream in) throws IOException {
        int count = Varints.readInt(in, MAX_FLUSH_POINTS, "flush point count");
        LongStream.Builder points = LongStream.builder();
        long point = 0;
        for (int i = 0; i < count; i++) {
            point = Math.addExact(point, Varints.read(in));
            points.add(point);
        }
        return points.build().toArray();
    }

    private static void writeEncoder(OutputStream out, EncoderSpec spec) throws IOException {
        writeBytes(out, spec.family().getBytes(StandardCharsets.US_ASCII));
        Varints.writeSigned(out, spec.level());
        Varints.write(out, spec.params().size());
        for (int param : spec.params()) {
            Varints.writeSigned(out, param);
        }
    }

    private static EncoderSpec readEncoder(DataInputStream in) throws IOException {
        String family = new String(readBytes(in, 32, "encoder family length"), StandardCharsets.US_ASCII);
        int level = Math.toIntExact(Varints.readSigned(in));
        int count = Varints.readInt(in, 64, "encoder parameter count");
        List<Integer> params = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            params.add(Math.toIntExact(Varints.readSigned(in)));
        }
        return new EncoderSpec(family, level, params);
    }

    /** Offsets as deltas from the previous point, which keeps them to a few bytes each. */
    private static void writeRestartPoints(OutputStream out, List<RestartPoint> points) throws IOException {
        Varints.write(out, points.size());
        RestartPoint previous = null;
        for (RestartPoint point : points) {
            Varints.write(out, point.inputOffset() - (previous == null ? 0 : previous.inputOffset()));
            Varints.write(out, point.outputBitOffset() - (previous == null ? 0 : previous.outputBitOffset()));
            Varints.write(out, point.state().size());
            for (int value : point.state()) {
                Varints.writeSigned(out, value);
            }
            out.write(point.segmentSha256());
            previous = point;
        }
    }

    private static List<RestartPoint> readRestartPoints(DataInputStream in) throws IOException {
        int count = Varints.readInt(in, MAX_RESTART_POINTS, "restart point count");
        List<RestartPoint> points = new ArrayList<>();
        long input = 0;
        long output = 0;
        for (int i = 0; i < count; i++) {
            input = Math.addExact(input, Varints.read(in));
            output = Math.addExact(output, Varints.read(in));
            int values = Varints.readInt(in, RestartPoint.MAX_STATE_VALUES, "restart state count");
            List<Integer> state = new ArrayList<>(values);
            for (int v = 0; v < values; v++) {
                state.add(Math.toIntExact(Varints.readSigned(in)));
            }
            byte[] sha = new byte[32];
            in.readFully(sha);
            points.add(new RestartPoint(input, output, state, sha));
        }
        return points;
    }

    /** Indices and offsets as deltas from the previous unit's. */
    private static void writeUnits(OutputStream out, List<UnitPoint> units) throws IOException {
        Varints.write(out, units.size());
        UnitPoint previous = null;
        for (UnitPoint unit : units) {
            Varints.write(out, unit.first() - (previous == null ? 0 : previous.first()));
            Varints.write(out, unit.blobOffset() - (previous == null ? 0 : previous.blobOffset()));
            out.write(unit.sha256());
            previous = unit;
        }
    }

    private static List<UnitPoint> readUnits(DataInputStream in) throws IOException {
        int count = Varints.readInt(in, MAX_MEMBERS, "unit point count");
        List<UnitPoint> units = new ArrayList<>();
        int first = 0;
        long blobOffset = 0;
        for (int i = 0; i < count; i++) {
            first = Math.addExact(first, Varints.readInt(in, MAX_MEMBERS, "unit point's member or frame delta"));
            blobOffset = Math.addExact(blobOffset, Varints.read(in));
            byte[] sha = new byte[32];
            in.readFully(sha);
            units.add(new UnitPoint(first, blobOffset, sha));
        }
        return units;
    }

    private static void writeBytes(OutputStream out, byte[] bytes) throws IOException {
        Varints.write(out, bytes.length);
        out.write(bytes);
    }

    /** Allocates as the bytes arrive, not as the length claims: a damaged length costs no memory. */
    private static byte[] readBytes(DataInputStream in, int max, String what) throws IOException {
        int length = Varints.readInt(in, max, what);
        byte[] bytes = in.readNBytes(length);
        if (bytes.length < length) {
            throw new EOFException(what + " is " + length + " but only " + bytes.length + " bytes follow");
        }
        return bytes;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Recipe r && blobSha256.equals(r.blobSha256) && blobSize == r.blobSize && format == r.format
                && members.equals(r.members) && Arrays.equals(trailingBytes, r.trailingBytes) && skeleton.equals(r.skeleton)
                && frames.equals(r.frames) && units.equals(r.units);
    }

    @Override
    public int hashCode() {
        return blobSha256.hashCode();
    }

    @Override
    public String toString() {
        return "Recipe[" + format + " " + blobSha256 + ", " + blobSize + " bytes, " + members.size() + " members, " + frames.size() + " frames, "
                + skeleton + "]";
    }
}
