package dev.layerfold.dedup.codec.restart;

import dev.layerfold.dedup.codec.LayerFormat;
import dev.layerfold.dedup.codec.container.BlobInput;
import dev.layerfold.dedup.codec.container.DeflateMember;
import dev.layerfold.dedup.codec.container.GzipHeader;
import dev.layerfold.dedup.codec.recipe.GzipMember;
import dev.layerfold.dedup.codec.recipe.Recipe;
import dev.layerfold.dedup.codec.recipe.RestartPoint;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Finds and verifies a split layer's restart points: reads the blob again, and for every gzip member
 * whose encoder has them ({@link RestartableEncoders}) encodes the member in segments, each from a
 * state rebuilt from the input before its point alone, comparing every byte with the original
 * deflate stream. A member gets its points only if every segment matched; otherwise it keeps none
 * and is restored in one piece, as before. Members of other families are inflated past without
 * encoding; a layer with no such member is not read at all.
 *
 * <p>The cost is one more encoder pass over the members that get points (plus inflating the blob),
 * which is why only members of at least two segments are tried. Thread-safe.
 */
public final class RestartPointFinder {

    private static final int BUFFER = 64 * 1024;

    private final long spacing;

    /** Points about {@link RestartableEncoders#SPACING} apart. */
    public RestartPointFinder() {
        this(RestartableEncoders.SPACING);
    }

    /** Points about {@code spacing} bytes of input apart (tests use small ones). */
    public RestartPointFinder(long spacing) {
        if (spacing < 1 || spacing > GzipMember.MAX_SEGMENT_INPUT) {
            throw new IllegalArgumentException("restart point spacing must be 1 byte to " + GzipMember.MAX_SEGMENT_INPUT + ", got " + spacing);
        }
        this.spacing = spacing;
    }

    /** A recipe with restart points for every member that verified; {@code blob} is the layer the recipe was split from. */
    public Recipe find(Recipe recipe, InputStream blob) throws IOException {
        if (recipe.format() != LayerFormat.GZIP || recipe.members().stream().noneMatch(this::worthTrying)) {
            return recipe;
        }
        BlobInput in = new BlobInput(blob, BUFFER, false);
        DeflateMember deflate = new DeflateMember(BUFFER);
        List<GzipMember> members = new ArrayList<>(recipe.members().size());
        try {
            for (GzipMember member : recipe.members()) {
                GzipHeader.read(in);
                if (worthTrying(member)) {
                    SegmentCheck check = new SegmentCheck(member.encoder(), member.uncompressedSize(), spacingOf(member));
                    deflate.read(in, check);
                    members.add(member.withRestartPoints(check.finish()));
                } else {
                    deflate.read(in, SKIP);
                    members.add(member);
                }
            }
        } finally {
            deflate.close();
        }
        return new Recipe(recipe.blobSha256(), recipe.blobSize(), recipe.format(), members, recipe.trailingBytes(), recipe.skeleton());
    }

    /** Members of at least two segments, whose segments fit what a restore buffers. */
    private boolean worthTrying(GzipMember member) {
        Optional<Long> spacing = member.encoder().isNone() ? Optional.empty() : RestartableEncoders.spacing(member.encoder(), this.spacing);
        return spacing.isPresent() && member.uncompressedSize() > spacing.get() && spacing.get() <= GzipMember.MAX_SEGMENT_INPUT;
    }

    private long spacingOf(GzipMember member) {
        return RestartableEncoders.spacing(member.encoder(), spacing).orElseThrow();
    }

    private static final DeflateMember.Listener SKIP = new DeflateMember.Listener() {
        @Override
        public void deflated(byte[] data, int offset, int length) {
        }

        @Override
        public void inflated(byte[] data, int offset, int length) {
        }
    };
}
