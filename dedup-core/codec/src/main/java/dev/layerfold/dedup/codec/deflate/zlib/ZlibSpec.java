package dev.layerfold.dedup.codec.deflate.zlib;

import dev.layerfold.dedup.codec.family.FamilySpec;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;

import java.util.List;

/**
 * A {@code zlib} spec: the level, and zlib's memLevel, windowBits and strategy (zlib's numbering),
 * stored as three parameters when {@code tuned}, as none (zlib's defaults 8, 15, default strategy) otherwise.
 */
public record ZlibSpec(int level, int memLevel, int windowBits, ZlibStrategy strategy, boolean tuned) implements FamilySpec {

    private static final int DEFAULT_MEM_LEVEL = 8;
    private static final int DEFAULT_WINDOW_BITS = 15;

    /** @throws IllegalArgumentException with other than none or three parameters, or an unknown strategy */
    public static ZlibSpec decode(EncoderSpec spec) {
        List<Integer> p = spec.params();
        if (p.isEmpty()) {
            return new ZlibSpec(spec.level(), DEFAULT_MEM_LEVEL, DEFAULT_WINDOW_BITS, ZlibStrategy.DEFAULT, false);
        }
        if (p.size() != 3) {
            throw new IllegalArgumentException("encoder " + spec + " needs 3 parameters, has " + p.size());
        }
        int strategy = p.get(2);
        if (strategy < 0 || strategy >= ZlibStrategy.values().length) {
            throw new IllegalArgumentException("encoder " + spec + " names unknown zlib strategy " + strategy);
        }
        return new ZlibSpec(spec.level(), p.get(0), p.get(1), ZlibStrategy.values()[strategy], true);
    }

    /** The settings a tuned spec names. */
    public ZlibSettings settings() {
        return new ZlibSettings(level, memLevel, windowBits, strategy);
    }

    @Override
    public EncoderSpec stored() {
        return tuned ? EncoderSpec.of(ZlibFamily.NAME, level, memLevel, windowBits, strategy.ordinal()) : EncoderSpec.of(ZlibFamily.NAME, level);
    }
}
