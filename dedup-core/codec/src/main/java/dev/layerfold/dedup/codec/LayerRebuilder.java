package dev.layerfold.dedup.codec;

import dev.layerfold.dedup.codec.identify.EncoderFactory;
import dev.layerfold.dedup.codec.identify.RestartableEncoders;
import dev.layerfold.dedup.codec.io.CountingOutput;
import dev.layerfold.dedup.codec.io.LayerRebuildException;
import dev.layerfold.dedup.codec.io.VerifyingOutput;
import dev.layerfold.dedup.codec.recipe.FileRef;
import dev.layerfold.dedup.codec.recipe.GzipMember;
import dev.layerfold.dedup.codec.recipe.LayerFormat;
import dev.layerfold.dedup.codec.recipe.Recipe;
import dev.layerfold.dedup.codec.recipe.RestartPoint;
import dev.layerfold.dedup.codec.recipe.SkeletonOp;
import dev.layerfold.dedup.codec.recipe.UnitPoint;
import dev.layerfold.dedup.codec.recipe.ZstdFrame;
import dev.layerfold.dedup.codec.recipe.ZstdRestartPoint;
import dev.layerfold.dedup.codec.restart.ParallelMember;
import dev.layerfold.dedup.codec.restart.ParallelSegments;
import dev.layerfold.dedup.codec.restart.ProvingMember;
import dev.layerfold.dedup.codec.restart.SegmentPool;
import dev.layerfold.dedup.codec.zstd.ParallelFrame;
import dev.layerfold.dedup.codec.zstd.ZstdEncoders;
import dev.layerfold.dedup.codec.zstd.encoder.FrameProver;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * Rebuilds a layer blob from its recipe and its file bodies, streaming: the tar skeleton's ops,
 * bodies fetched in recipe order, through the recorded encoders and gzip or zstd framing. The sha256 and
 * size of the written bytes are checked against the recipe at the end; until
 * {@link #rebuild} returns normally, the output must not be trusted. With a {@link SegmentPool},
 * gzip members and zstd frames with restart points, and layers with unit points ({@link UnitPoint}),
 * are encoded in segments or units on several threads, and a rebuild can start at a restart or unit
 * point instead of byte 0. A restore asks for a {@link RebuildPlan} ({@link #plan}) and runs it. Thread-safe.
 */
public final class LayerRebuilder {

    private static final int BUFFER = 64 * 1024;
    private static final byte[] ZEROS = new byte[512];

    private final EncoderFactory encoders;
    private final ZstdEncoders zstd = ZstdEncoders.standard();
    private final SegmentPool segments;

    /** A rebuilder that encodes every member on the caller's thread, in one piece. */
    public LayerRebuilder(EncoderFactory encoders) {
        this(encoders, null);
    }

    /** @param segments the threads that encode the segments of members with restart points (null: none) */
    public LayerRebuilder(EncoderFactory encoders, SegmentPool segments) {
        this.encoders = encoders;
        this.segments = segments;
    }

    /**
     * The rebuild that serves {@code recipe}'s blob from {@code fromOffset}: from the last restart or
     * unit point at or before it where there is one (see {@link #resumePoint}), else the whole layer
     * from byte 0 (always so for offset 0).
     */
    public RebuildPlan plan(Recipe recipe, long fromOffset) {
        return new RebuildPlan(this, recipe, fromOffset <= 0 ? null : resumePoint(recipe, fromOffset).orElse(null));
    }

    /**
     * The most heap a rebuild of {@code recipe} by this rebuilder ({@link #rebuild} or
     * {@link #rebuildFrom}) holds at once, besides the file bodies its source hands it: its buffers,
     * its encoder's state and, with a segment pool, the segments it may have under way. What a
     * caller reserves before it starts one ({@link RebuildPlan#heapBound}).
     */
    long heapBound(Recipe recipe) {
        return RebuildFootprint.heapBound(recipe, segments == null ? 0 : segments.perRestore());
    }

    /**
     * A rebuilder that encodes the segments of members and frames with restart points on at most
     * {@code threads} of {@code executor} at once, shared by every rebuild it runs (a {@link SegmentPool}).
     */
    public static LayerRebuilder onThreads(EncoderFactory encoders, Executor executor, int threads) {
        return new LayerRebuilder(encoders, new SegmentPool(executor, threads));
    }

    /** This rebuilder without its segment pool: every member and frame encoded in one piece, on the caller's thread. */
    LayerRebuilder inOnePiece() {
        return segments == null ? this : new LayerRebuilder(encoders);
    }

    /** The most heap {@link #rebuildFindingRestartPoints} holds at once for {@code recipe}, as {@link #heapBound}. */
    public static long proofHeapBound(Recipe recipe) {
        return RebuildFootprint.proofBound(recipe);
    }

    /**
     * Where a rebuild can start so as to serve the blob from {@code blobOffset}: the last restart
     * point at or before it, in a one-member gzip layer or a one-frame zstd layer, whose every segment
     * from there to the end carries a digest (a restart point's does), or the last unit point at or
     * before it, in a layer with unit points. Empty if there is none (or no segment pool): the rebuild
     * starts at byte 0.
     *
     * @param point      the restart point's index in the member or frame, or the unit's in a layer with unit points
     * @param blobOffset where in the blob the rebuilt bytes start
     * @param tarOffset  where in the tar stream the input starts (the point, less the history its state reads)
     */
    record Resume(int point, long blobOffset, long tarOffset) {
    }

    Optional<Resume> resumePoint(Recipe recipe, long blobOffset) {
        if (segments != null && !recipe.units().isEmpty()) {
            return unitAtOrBefore(recipe, blobOffset);
        }
        Optional<ZstdFrame.Compressed> frame = onlyFrame(recipe);
        if (segments != null && frame.isPresent()) {
            List<ZstdRestartPoint> points = frame.get().restartPoints();
            for (int i = points.size() - 1; i > 0; i--) {
                if (points.get(i).outputOffset() <= blobOffset) {
                    try {
                        return Optional.of(new Resume(i, points.get(i).outputOffset(), ParallelFrame.inputStart(frame.get(), points.get(i))));
                    } catch (IllegalArgumentException damaged) {
                        // A point whose patch does not say where its history starts: the whole restore checks every segment.
                        return Optional.empty();
                    }
                }
            }
            return Optional.empty();
        }
        if (segments == null || recipe.format() != LayerFormat.GZIP || recipe.members().size() != 1) {
            return Optional.empty();
        }
        GzipMember member = recipe.members().getFirst();
        long header = member.header().length;
        List<RestartPoint> points = member.restartPoints();
        for (int i = points.size() - 1; i > 0; i--) {
            // A point inside a byte shares it with the segment before: the rebuild starts at its first whole byte.
            long at = header + (points.get(i).outputBitOffset() + 7 >>> 3);
            if (at <= blobOffset) {
                return Optional.of(new Resume(i, at, ParallelMember.inputStart(RestartableEncoders.STANDARD, member.encoder(), points.get(i))));
            }
        }
        return Optional.empty();
    }

    private static Optional<Resume> unitAtOrBefore(Recipe recipe, long blobOffset) {
        List<UnitPoint> units = recipe.units();
        for (int i = units.size() - 1; i > 0; i--) {
            if (units.get(i).blobOffset() <= blobOffset) {
                return Optional.of(new Resume(i, units.get(i).blobOffset(), FrameUnits.tarOffset(recipe, units.get(i).first())));
            }
        }
        return Optional.empty();
    }

    /**
     * Whether {@link #rebuildFindingRestartPoints} encodes some part of the layer in pieces: a gzip member
     * whose family has restart points, the frame of a one-frame zstd layer whose encoder has, or
     * units of whole members or frames.
     */
    public static boolean findsRestartPoints(Recipe recipe) {
        return !FrameUnits.cut(recipe, RestartableEncoders.SPACING).isEmpty()
                || recipe.members().stream().anyMatch(m -> RestartableEncoders.restartable(m.encoder()))
                || onlyFrame(recipe).filter(frame -> ZstdEncoders.proves(frame, RestartableEncoders.SPACING)).isPresent();
    }

    /** The compressed frame of a zstd layer of one frame (no skippable ones either): the layers that get restart points. */
    private static Optional<ZstdFrame.Compressed> onlyFrame(Recipe recipe) {
        return recipe.format() == LayerFormat.ZSTD && recipe.frames().size() == 1 && recipe.frames().getFirst() instanceof ZstdFrame.Compressed frame
                ? Optional.of(frame) : Optional.empty();
    }

    /** The file bodies a rebuild from {@code resume} reads, in the order it reads them. */
    static List<FileRef> filesFrom(Recipe recipe, Resume resume) {
        List<FileRef> refs = new ArrayList<>();
        long position = 0;
        for (Iterator<SkeletonOp> ops = recipe.skeleton().ops(); ops.hasNext(); ) {
            SkeletonOp op = ops.next();
            long length = length(op);
            if (op instanceof SkeletonOp.File file && position + length > resume.tarOffset()) {
                refs.add(file.ref());
            }
            position += length;
        }
        return refs;
    }

    /**
     * Writes the blob from {@code resume.blobOffset()} to its end to {@code out} (not closed). Each
     * segment or unit is checked against its point's digest before it is written, and the count of
     * bytes against the blob's size; the blob's sha256 cannot be, as its start is not rebuilt.
     *
     * @throws LayerRebuildException if a segment or the size differs, or a body is missing or has the wrong size
     */
    void rebuildFrom(Recipe recipe, FileContentSource files, Resume resume, OutputStream out) throws IOException {
        CountingOutput counted = new CountingOutput(out);
        OutputStream blob = new BufferedOutputStream(counted, BUFFER);
        if (recipe.units().isEmpty()) {
            resumeSegments(recipe, files, resume, blob);
        } else {
            resumeUnits(recipe, files, resume, blob);
        }
        blob.write(recipe.trailingBytes());
        blob.flush();
        if (counted.count() != recipe.blobSize() - resume.blobOffset()) {
            throw new LayerRebuildException("rebuilt layer from offset " + resume.blobOffset() + " has " + counted.count() + " bytes, expected "
                    + (recipe.blobSize() - resume.blobOffset()));
        }
    }

    private void resumeUnits(Recipe recipe, FileContentSource files, Resume resume, OutputStream blob) throws IOException {
        ParallelUnits units = new ParallelUnits(new FrameUnits(recipe, encoders, zstd), recipe.units(), resume.point(), segments, blob);
        try {
            writeTar(recipe, files, units, resume.tarOffset());
            units.finish();
        } catch (IOException | RuntimeException e) {
            units.abort();
            throw e;
        }
    }

    /** Resumes the one member or frame at one of its restart points. */
    private void resumeSegments(Recipe recipe, FileContentSource files, Resume resume, OutputStream blob) throws IOException {
        Optional<ZstdFrame.Compressed> frame = onlyFrame(recipe);
        // A frame's encoder writes its checksum; a member's trailer follows it.
        ParallelSegments<?> encoder = frame.isPresent() ? ParallelFrame.open(frame.get(), resume.point(), segments, blob)
                : new ParallelMember(recipe.members().getFirst(), RestartableEncoders.STANDARD, resume.point(), segments, blob);
        try {
            writeTar(recipe, files, new OutputStream() {
                @Override
                public void write(int b) throws IOException {
                    write(new byte[] {(byte) b}, 0, 1);
                }

                @Override
                public void write(byte[] data, int offset, int length) throws IOException {
                    encoder.write(data, offset, length);
                }
            }, resume.tarOffset());
            encoder.finish();
        } catch (IOException | RuntimeException e) {
            encoder.abort();
            throw e;
        }
        if (frame.isEmpty()) {
            blob.write(recipe.members().getFirst().trailer());
        }
    }

    private static long length(SkeletonOp op) {
        return switch (op) {
            case SkeletonOp.Inline inline -> inline.length();
            case SkeletonOp.File file -> file.ref().size() + file.paddingSize();
        };
    }

    /**
     * Writes the blob to {@code out} (not closed).
     *
     * @throws LayerRebuildException if the recipe names no encoder for some member, a body is
     *                               missing or has the wrong size, or the result differs from the
     *                               original blob
     */
    public void rebuild(Recipe recipe, FileContentSource files, OutputStream out) throws IOException {
        if (segments != null && !recipe.units().isEmpty()) {
            rebuildFramed(recipe, files, out, blob -> new ParallelUnits(new FrameUnits(recipe, encoders, zstd), recipe.units(), 0, segments, blob));
            return;
        }
        ZstdFramer.FrameEncoders onePiece = ZstdFramer.inOnePiece(zstd);
        boolean inSegments = segments != null && segments.parallel();
        rebuild(recipe, files, out, (member, blob) -> inSegments && !member.restartPoints().isEmpty()
                ? new ParallelMember(member, RestartableEncoders.STANDARD, 0, segments, blob) : encoders.create(member.encoder(), blob),
                (index, frame, blob) -> inSegments && !frame.restartPoints().isEmpty()
                        ? ParallelFrame.open(frame, 0, segments, blob) : onePiece.create(index, frame, blob));
    }

    /**
     * Rebuilds the blob as {@link #rebuild} does, but encodes every member whose family has restart
     * points ({@link RestartableEncoders}), and the frame of a one-frame zstd layer whose encoder has
     * ({@link FrameProver}), in pieces about 4 MiB of input apart, each from a state
     * rebuilt from the input before it alone, and returns the recipe with those restart points. They
     * are verified when this returns: the blob's sha256 matched, so every piece gave the original's
     * bytes. A mismatch may come from a piece or from the files; {@link #rebuild} without pieces tells.
     * A layer of several members or frames is instead cut into units of whole ones ({@link UnitPoint}),
     * each encoded alone, and returned with their points; its members get no restart points.
     */
    public Recipe rebuildFindingRestartPoints(Recipe recipe, FileContentSource files, OutputStream out) throws IOException {
        return rebuildFindingRestartPoints(recipe, files, out, RestartableEncoders.SPACING);
    }

    /** As {@link #rebuildFindingRestartPoints(Recipe, FileContentSource, OutputStream)}, pieces about {@code spacing} bytes apart. */
    public Recipe rebuildFindingRestartPoints(Recipe recipe, FileContentSource files, OutputStream out, long spacing) throws IOException {
        List<Integer> unitFirsts = FrameUnits.cut(recipe, spacing);
        if (!unitFirsts.isEmpty()) {
            return rebuildFindingUnits(recipe, files, out, unitFirsts);
        }
        List<GzipMember> proven = new ArrayList<>();
        Map<Integer, ProvingMember> provers = new HashMap<>();
        ZstdFramer.FrameEncoders onePiece = ZstdFramer.inOnePiece(zstd);
        Optional<ZstdFrame.Compressed> onlyFrame = onlyFrame(recipe);
        FrameProver[] frameProver = new FrameProver[1];
        rebuild(recipe, files, out, (member, blob) -> {
            GzipMember withoutPoints = member.withRestartPoints(List.of());
            Optional<ProvingMember> prover = ProvingMember.of(withoutPoints, RestartableEncoders.STANDARD, spacing, blob);
            prover.ifPresent(p -> provers.put(proven.size(), p));
            proven.add(withoutPoints);
            return prover.isPresent() ? prover.get() : encoders.create(member.encoder(), blob);
        }, (index, frame, blob) -> {
            Optional<FrameProver> prover = onlyFrame.isPresent() ? ZstdEncoders.prover(frame, spacing, blob) : Optional.empty();
            frameProver[0] = prover.orElse(null);
            return prover.isPresent() ? prover.get() : onePiece.create(index, frame, blob);
        });
        provers.forEach((index, prover) -> proven.set(index, prover.withCandidates()));
        List<ZstdFrame> frames = recipe.frames();
        if (onlyFrame.isPresent()) {
            List<ZstdRestartPoint> points = frameProver[0] != null && frameProver[0].candidates().size() > 1 ? frameProver[0].candidates() : List.of();
            frames = List.of(onlyFrame.get().withRestartPoints(points));
        }
        return new Recipe(recipe.blobSha256(), recipe.blobSize(), recipe.format(), proven, recipe.trailingBytes(), recipe.skeleton(), frames);
    }

    private Recipe rebuildFindingUnits(Recipe recipe, FileContentSource files, OutputStream out, List<Integer> unitFirsts) throws IOException {
        Recipe withoutPoints = new Recipe(recipe.blobSha256(), recipe.blobSize(), recipe.format(),
                recipe.members().stream().map(member -> member.withRestartPoints(List.of())).toList(), recipe.trailingBytes(), recipe.skeleton(),
                recipe.frames());
        List<UnitPoint> units = new ArrayList<>();
        rebuildFramed(withoutPoints, files, out, blob -> new ProvingUnits(new FrameUnits(withoutPoints, encoders, zstd), unitFirsts, blob, units));
        return withoutPoints.withUnits(units);
    }

    private void rebuild(Recipe recipe, FileContentSource files, OutputStream out, GzipFramer.MemberEncoders memberEncoders,
                         ZstdFramer.FrameEncoders frameEncoders) throws IOException {
        rebuildFramed(recipe, files, out, blob -> switch (recipe.format()) {
            case GZIP -> new GzipFramer(recipe.members(), memberEncoders, blob);
            case ZSTD -> new ZstdFramer(recipe.frames(), frameEncoders, blob);
            case TAR -> null;
        });
    }

    /** @param framers the framer that takes the tar stream and writes the blob to the stream given; null for a plain tar */
    private void rebuildFramed(Recipe recipe, FileContentSource files, OutputStream out, Function<OutputStream, ContainerFramer> framers)
            throws IOException {
        for (int i = 0; i < recipe.members().size(); i++) {
            if (recipe.members().get(i).encoder().isNone()) {
                throw new LayerRebuildException("layer " + recipe.blobSha256() + " cannot be rebuilt: no known encoder reproduces its gzip member " + i);
            }
        }
        if (!recipe.reproducible()) {
            throw new LayerRebuildException("layer " + recipe.blobSha256() + " cannot be rebuilt: no known encoder reproduces one of its zstd frames");
        }
        VerifyingOutput verified = new VerifyingOutput(out);
        OutputStream blob = new BufferedOutputStream(verified, BUFFER);
        ContainerFramer framer = framers.apply(blob);
        try {
            writeTar(recipe, files, framer != null ? framer : blob, 0);
            if (framer != null) {
                framer.finish();
            }
            blob.write(recipe.trailingBytes());
        } catch (IOException | RuntimeException e) {
            if (framer != null) {
                framer.abort();
            }
            throw e;
        }
        blob.flush();
        if (verified.size() != recipe.blobSize() || !verified.sha256Hex().equals(recipe.blobSha256())) {
            throw new LayerRebuildException("rebuilt layer differs from the original: got " + verified.size() + " bytes with sha256 "
                    + verified.sha256Hex() + ", expected " + recipe.blobSize() + " bytes with sha256 " + recipe.blobSha256());
        }
    }

    /** Writes the tar stream from byte {@code from} on; bodies wholly before it are not opened. */
    private static void writeTar(Recipe recipe, FileContentSource files, OutputStream tar, long from) throws IOException {
        byte[] buffer = new byte[BUFFER];
        long position = 0;
        try {
            for (Iterator<SkeletonOp> ops = recipe.skeleton().ops(); ops.hasNext(); ) {
                SkeletonOp op = ops.next();
                long length = length(op);
                if (position + length <= from) {
                    position += length;
                    continue;
                }
                OutputStream target = position >= from ? tar : new SkippingOutput(tar, from - position);
                position += length;
                switch (op) {
                    case SkeletonOp.Inline inline -> inline.writeTo(target);
                    case SkeletonOp.File file -> {
                        copyBody(file.ref(), files, target, buffer);
                        target.write(ZEROS, 0, (int) file.paddingSize());
                    }
                }
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** Drops the first bytes of the op a rebuild starts inside. */
    private static final class SkippingOutput extends java.io.FilterOutputStream {
        private long skip;

        SkippingOutput(OutputStream out, long skip) {
            super(out);
            this.skip = skip;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] data, int offset, int length) throws IOException {
            int dropped = (int) Math.min(skip, length);
            skip -= dropped;
            if (length > dropped) {
                out.write(data, offset + dropped, length - dropped);
            }
        }
    }

    private static void copyBody(FileRef ref, FileContentSource files, OutputStream tar, byte[] buffer) throws IOException {
        try (InputStream body = files.open(ref)) {
            if (body instanceof HeapFileBody onHeap) {
                if (onHeap.available() < ref.size()) {
                    throw new LayerRebuildException("file body " + ref.sha256() + " ended " + (ref.size() - onHeap.available())
                            + " bytes short of its " + ref.size() + " bytes");
                }
                if (onHeap.available() > ref.size()) {
                    throw new LayerRebuildException("file body " + ref.sha256() + " is longer than its " + ref.size() + " bytes");
                }
                // The same pieces a copy through the buffer would make, so the encoder sees the same writes.
                onHeap.writeTo(tar, buffer.length);
                return;
            }
            long left = ref.size();
            while (left > 0) {
                int n = body.read(buffer, 0, (int) Math.min(buffer.length, left));
                if (n < 0) {
                    throw new LayerRebuildException("file body " + ref.sha256() + " ended " + left + " bytes short of its " + ref.size() + " bytes");
                }
                tar.write(buffer, 0, n);
                left -= n;
            }
            if (body.read() >= 0) {
                throw new LayerRebuildException("file body " + ref.sha256() + " is longer than its " + ref.size() + " bytes");
            }
        }
    }
}
