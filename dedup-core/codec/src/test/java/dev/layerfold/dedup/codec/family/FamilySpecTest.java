package dev.layerfold.dedup.codec.family;

import dev.layerfold.dedup.codec.deflate.golang.GoSpec;
import dev.layerfold.dedup.codec.deflate.klauspost.FlateRelease;
import dev.layerfold.dedup.codec.deflate.klauspost.PgzipSpec;
import dev.layerfold.dedup.codec.deflate.pigz.PigzSettings;
import dev.layerfold.dedup.codec.deflate.zlib.GnuGzipSpec;
import dev.layerfold.dedup.codec.deflate.zlib.ZlibSpec;
import dev.layerfold.dedup.codec.deflate.zlib.ZlibStrategy;
import dev.layerfold.dedup.codec.identify.EncoderFamilies;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Each family reads its stored specs into typed records and writes back the very spec it read, so recipes keep their bytes. */
class FamilySpecTest {

    private static final EncoderFamilies FAMILIES = EncoderFamilies.standard();

    @Test
    void everyCandidateAndItsFlushedOrTunedVariantsReadBackToTheStoredSpec() {
        for (EncoderSpec spec : FAMILIES.candidates()) {
            assertThat(FAMILIES.decode(spec).stored()).as("%s", spec).isEqualTo(spec);
            FAMILIES.flushedBeforeFinish(spec).ifPresent(flushed -> assertThat(FAMILIES.decode(flushed).stored()).isEqualTo(flushed));
        }
        for (EncoderSpec spec : new EncoderSpec[] {EncoderSpec.of("zlib", 9, 8, 15, 0), EncoderSpec.of("zlib", 6, 9, 14, 3),
                EncoderSpec.of("pgzip", 5, 1 << 18, 11902), EncoderSpec.of("pigz", 6, 1 << 20, 1, 1)}) {
            assertThat(FAMILIES.decode(spec).stored()).as("%s", spec).isEqualTo(spec);
        }
    }

    @Test
    void theParametersSayWhatTheyAre() {
        assertThat(FAMILIES.decode(EncoderSpec.of("go", 9, 1))).isEqualTo(new GoSpec("go", 9, true));
        assertThat(FAMILIES.decode(EncoderSpec.of("go127", 6))).isEqualTo(new GoSpec("go127", 6, false));
        assertThat(FAMILIES.decode(EncoderSpec.of("pgzip", -1, 1 << 20, 11800))).isEqualTo(new PgzipSpec(-1, 1 << 20, FlateRelease.COMPRESS_1_18_0));
        assertThat(FAMILIES.decode(EncoderSpec.of("pgzip", 9, 1 << 20))).isEqualTo(new PgzipSpec(9, 1 << 20, FlateRelease.COMPRESS_1_20_3));
        assertThat(FAMILIES.decode(EncoderSpec.of("zlib", 6))).isEqualTo(new ZlibSpec(6, 8, 15, ZlibStrategy.DEFAULT, false));
        assertThat(FAMILIES.decode(EncoderSpec.of("zlib", 6, 9, 14, 3))).isEqualTo(new ZlibSpec(6, 9, 14, ZlibStrategy.RLE, true));
        assertThat(FAMILIES.decode(EncoderSpec.of("pigz", 9, 131072, 0, 1))).isEqualTo(new PigzSettings(9, 131072, false, true));
        assertThat(FAMILIES.decode(EncoderSpec.of("gzip", 1))).isEqualTo(new GnuGzipSpec(1));
    }

    @Test
    void parametersNotTheFamilysAreRefused() {
        assertThatThrownBy(() -> FAMILIES.decode(EncoderSpec.of("go", 6, 2))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("go-6/2");
        assertThatThrownBy(() -> FAMILIES.decode(EncoderSpec.of("pgzip", 5, 1 << 20, 11111))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("11800");
        assertThatThrownBy(() -> FAMILIES.decode(EncoderSpec.of("zlib", 6, 8, 15, 9))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("strategy");
        assertThatThrownBy(() -> FAMILIES.decode(EncoderSpec.of("gzip", 6, 1))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> FAMILIES.decode(EncoderSpec.of("brotli", 6))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown encoder family");
    }
}
