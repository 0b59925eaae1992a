package dev.layerfold.dedup.codec;

import dev.layerfold.dedup.codec.identify.EncoderFactory;
import dev.layerfold.dedup.codec.recipe.GzipMember;
import dev.layerfold.dedup.codec.recipe.LayerFormat;
import dev.layerfold.dedup.codec.recipe.Recipe;
import dev.layerfold.dedup.codec.recipe.UnitPoint;
import dev.layerfold.dedup.codec.recipe.ZstdFrame;
import dev.layerfold.dedup.codec.zstd.ZstdEncoders;

import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * The independent units of a layer of several gzip members or zstd frames ({@link UnitPoint}): where
 * they are cut, how much tar and blob each holds, and each encoded alone, as the proof that records
 * them encodes it and a restore encodes it again: every member from a fresh encoder (as gzip members
 * are), the unit's zstd frames from one encoder new at the unit's first frame and reset between
 * frames, as the producer resets its Writer. A frame whose bytes depended on the frame before would
 * not give the original's where a unit starts, and the proof would record no units for its layer.
 */
final class FrameUnits {

    private final Recipe recipe;
    private final EncoderFactory encoders;
    private final ZstdEncoders zstd;
    private final List<Long> pieceSizes;

    FrameUnits(Recipe recipe, EncoderFactory encoders, ZstdEncoders zstd) {
        this.recipe = recipe;
        this.encoders = encoders;
        this.zstd = zstd;
        this.pieceSizes = pieceSizes(recipe);
    }

    /**
     * The members or frames that start a unit: whole members or frames, a unit closed once it holds
     * {@code spacing} bytes of tar or more. None if the layer has one member or frame, would have one
     * unit, or has a member or frame larger than a restore buffers ({@link GzipMember#MAX_SEGMENT_INPUT}).
     */
    static List<Integer> cut(Recipe recipe, long spacing) {
        List<Long> sizes = pieceSizes(recipe);
        if (sizes.size() < 2 || sizes.stream().anyMatch(size -> size > GzipMember.MAX_SEGMENT_INPUT)) {
            return List.of();
        }
        List<Integer> firsts = new ArrayList<>(List.of(0));
        long held = 0;
        for (int i = 0; i < sizes.size(); i++) {
            if (held >= spacing || held + sizes.get(i) > GzipMember.MAX_SEGMENT_INPUT) {
                firsts.add(i);
                held = 0;
            }
            held += sizes.get(i);
        }
        return firsts.size() < 2 ? List.of() : firsts;
    }

    static List<Long> pieceSizes(Recipe recipe) {
        return switch (recipe.format()) {
            case GZIP -> recipe.members().stream().map(GzipMember::uncompressedSize).toList();
            case ZSTD -> recipe.frames().stream().map(ZstdFrame::contentSize).toList();
            case TAR -> List.of();
        };
    }

    /** Where in the tar stream member or frame {@code piece} of {@code recipe}'s starts. */
    static long tarOffset(Recipe recipe, int piece) {
        return pieceSizes(recipe).subList(0, piece).stream().mapToLong(Long::longValue).sum();
    }

    /** How many bytes of tar the members or frames {@code from} (inclusive) to {@code to} (exclusive) hold. */
    long tarSize(int from, int to) {
        return pieceSizes.subList(from, to).stream().mapToLong(Long::longValue).sum();
    }

    int pieces() {
        return pieceSizes.size();
    }

    /** The index after the last member or frame of unit {@code unit} of {@code units}. */
    int end(List<UnitPoint> units, int unit) {
        return unit + 1 < units.size() ? units.get(unit + 1).first() : pieces();
    }

    /** How many blob bytes unit {@code unit} of {@code units} holds. */
    long blobSize(List<UnitPoint> units, int unit) {
        long end = unit + 1 < units.size() ? units.get(unit + 1).blobOffset() : recipe.blobSize() - recipe.trailingBytes().length;
        return end - units.get(unit).blobOffset();
    }

    /** Writes members or frames {@code from} to {@code to} (exclusive) to {@code out} from their tar bytes, written to it. */
    ContainerFramer framer(int from, int to, OutputStream out) {
        return recipe.format() == LayerFormat.GZIP
                ? new GzipFramer(recipe.members().subList(from, to), (member, blob) -> encoders.create(member.encoder(), blob), out)
                : new ZstdFramer(recipe.frames().subList(from, to), ZstdFramer.inOnePiece(zstd), out);
    }
}
