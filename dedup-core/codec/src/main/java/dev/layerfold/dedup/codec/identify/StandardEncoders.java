package dev.layerfold.dedup.codec.identify;

import dev.layerfold.dedup.codec.deflate.golang.GoFamily;
import dev.layerfold.dedup.codec.deflate.klauspost.FlateRelease;
import dev.layerfold.dedup.codec.deflate.klauspost.Go127Family;
import dev.layerfold.dedup.codec.deflate.klauspost.PgzipFamily;
import dev.layerfold.dedup.codec.deflate.klauspost.PgzipSpec;
import dev.layerfold.dedup.codec.deflate.pigz.PigzFamily;
import dev.layerfold.dedup.codec.deflate.pigz.PigzSettings;
import dev.layerfold.dedup.codec.deflate.zlib.GnuGzipFamily;
import dev.layerfold.dedup.codec.deflate.zlib.ZlibFamily;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;

import java.util.List;

/**
 * The encoders real layer producers use ({@link EncoderFamilies#standard()}), by the names recipes
 * give their families; each family's class says what it reproduces and who writes it.
 */
public final class StandardEncoders {

    /** {@link GoFamily}: Go 1.8 to 1.26. */
    public static final String GO = GoFamily.NAME;
    /** {@link Go127Family}: Go since 1.27. */
    public static final String GO127 = Go127Family.NAME;
    /** {@link ZlibFamily}. */
    public static final String ZLIB = ZlibFamily.NAME;
    /** {@link PigzFamily}. */
    public static final String PIGZ = PigzFamily.NAME;
    /** {@link GnuGzipFamily}. */
    public static final String GNU_GZIP = GnuGzipFamily.NAME;
    /** {@link PgzipFamily}. */
    public static final String PGZIP = PgzipFamily.NAME;
    /** The {@code go} and {@code go127} parameter of a stream sync-flushed right before its end. */
    public static final int FLUSHED_BEFORE_FINISH = GoFamily.FLUSHED_BEFORE_FINISH;

    /** Most likely first (hints reorder them per member). */
    public static final List<EncoderSpec> CANDIDATES = EncoderFamilies.standard().candidates();

    private StandardEncoders() {
    }

    public static EncoderFamilies factory() {
        return EncoderFamilies.standard();
    }

    public static EncoderIdentifier identifier() {
        return EncoderFamilies.standard().identifier();
    }

    /** The pigz options a {@code pigz} spec names. */
    public static PigzSettings pigzSettings(EncoderSpec spec) {
        return PigzFamily.settings(spec);
    }

    /** The klauspost/compress release a {@code pgzip} spec names. */
    public static FlateRelease pgzipRelease(EncoderSpec spec) {
        return PgzipSpec.decode(spec).release();
    }
}
