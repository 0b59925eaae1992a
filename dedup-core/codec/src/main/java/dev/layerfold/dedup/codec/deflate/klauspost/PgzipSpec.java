package dev.layerfold.dedup.codec.deflate.klauspost;

import dev.layerfold.dedup.codec.family.FamilySpec;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;

import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * A {@code pgzip} spec: klauspost's level (-1 is its default, 5), pgzip's block size, and the
 * klauspost/compress release, stored as a second parameter for releases before 1.18.2, its version as
 * major * 10000 + minor * 100 + patch ({@code 11800}: 1.18.0), none for 1.20.x.
 */
public record PgzipSpec(int level, int blockSize, FlateRelease release) implements FamilySpec {

    /** The stored version parameter of each older release: the last version it stands for. */
    private static final Map<Integer, FlateRelease> RELEASES = Map.of(
            11306, FlateRelease.COMPRESS_1_13_6, 11404, FlateRelease.COMPRESS_1_14_4, 11509, FlateRelease.COMPRESS_1_15_9, 11510, FlateRelease.COMPRESS_1_15_10,
            11512, FlateRelease.COMPRESS_1_15_12, 11711, FlateRelease.COMPRESS_1_17_11, 11800, FlateRelease.COMPRESS_1_18_0,
            11902, FlateRelease.COMPRESS_1_19_2);

    /** @throws IllegalArgumentException without a block size, or with an unknown release */
    public static PgzipSpec decode(EncoderSpec spec) {
        List<Integer> p = spec.params();
        if (p.size() == 1) {
            return new PgzipSpec(spec.level(), p.getFirst(), FlateRelease.COMPRESS_1_20_3);
        }
        if (p.size() == 2 && RELEASES.containsKey(p.get(1))) {
            return new PgzipSpec(spec.level(), p.getFirst(), RELEASES.get(p.get(1)));
        }
        throw new IllegalArgumentException("encoder " + spec + " needs the block size, then optionally the klauspost/compress release, one of "
                + new TreeSet<>(RELEASES.keySet()));
    }

    /** The deflate level klauspost runs: -1 is its default, 5. */
    public int deflateLevel() {
        return level == -1 ? 5 : level;
    }

    @Override
    public EncoderSpec stored() {
        if (release == FlateRelease.COMPRESS_1_20_3) {
            return EncoderSpec.of(PgzipFamily.NAME, level, blockSize);
        }
        int version = RELEASES.entrySet().stream().filter(e -> e.getValue() == release).mapToInt(Map.Entry::getKey).findFirst()
                .orElseThrow(() -> new IllegalStateException("no stored version for " + release));
        return EncoderSpec.of(PgzipFamily.NAME, level, blockSize, version);
    }
}
