package dev.layerfold.dedup.codec;

import dev.layerfold.dedup.codec.deflate.golang.TestInputs;
import dev.layerfold.dedup.codec.deflate.klauspost.FlateRelease;
import dev.layerfold.dedup.codec.deflate.klauspost.PgzipOracle;
import dev.layerfold.dedup.codec.identify.Identification;
import dev.layerfold.dedup.codec.identify.StandardEncoders;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * pgzip layers of each klauspost/compress release among the candidates are identified as that
 * release's and rebuilt, though Go 1.27's deflate and the other releases may write the same bytes
 * for a long way (up to pgzip's first block boundary, or through blocks whose header lists every
 * code), and another release's candidate at the same level writes other bytes before the
 * identifier would take it (pgzip's first block and 256 KiB of the next), or none at all.
 */
class PgzipReleaseIdentificationTest {

    private static final int BLOCK = 1 << 20;
    private static final byte[] TAR = TestInputs.tarOf(Files.isDirectory(Path.of("/usr/share/doc")) ? Path.of("/usr/share/doc")
            : Path.of("/usr/include"), 3_000_000);

    static List<EncoderSpec> pgzipCandidates() {
        return StandardEncoders.CANDIDATES.stream().filter(spec -> spec.family().equals(StandardEncoders.PGZIP)).toList();
    }

    @ParameterizedTest
    @MethodSource("pgzipCandidates")
    void aLayerOfEachReleaseIsIdentifiedAsItsOwnAndRebuilt(EncoderSpec spec) throws Exception {
        byte[] layer = TestCodec.gzipMember(TAR, out -> StandardEncoders.factory().create(spec, out));

        TestCodec.RoundTrip trip = TestCodec.roundTrip(new LayerSplitter(StandardEncoders.identifier()),
                new LayerRebuilder(StandardEncoders.factory()), layer);

        assertThat(trip.split().identifications()).singleElement().extracting(Identification::encoder).isEqualTo(spec);
        assertThat(trip.rebuilt()).isEqualTo(layer);
    }

    /** Level 9 of 1.18.2 to 1.19.2 is left out: no candidate writes it (see the candidate list), so 1.20's is taken and fails. */
    static Stream<Arguments> toolLevelsOfEachRelease() {
        return PgzipOracle.releases().stream().flatMap(release -> Stream.of(-1, 9).map(level -> Arguments.of(release, level)))
                .filter(arguments -> !Arrays.equals(arguments.get(), new Object[] {FlateRelease.COMPRESS_1_19_2, 9}));
    }

    /**
     * What the tools write (pgzip's default level, and 9), by the real pgzip over each release there
     * is an oracle for: some candidate, that release's or a twin writing the same bytes, rebuilds it.
     */
    @ParameterizedTest
    @MethodSource("toolLevelsOfEachRelease")
    void aRealPgzipLayerOfEachReleaseIsIdentifiedAndRebuilt(FlateRelease release, int level) throws Exception {
        byte[] layer = PgzipOracle.of(release).gzip(level, BLOCK, TAR);

        TestCodec.RoundTrip trip = TestCodec.roundTrip(new LayerSplitter(StandardEncoders.identifier()),
                new LayerRebuilder(StandardEncoders.factory()), layer);

        assertThat(trip.split().identifications()).singleElement().extracting(id -> id.encoder().family()).isEqualTo(StandardEncoders.PGZIP);
        assertThat(trip.rebuilt()).isEqualTo(layer);
    }

    /**
     * podman 4.0's and buildah 1.24's pgzip (over compress 1.14.2, which has no release of its own) at
     * its default and 9, and Ubuntu 22.04's podman 3.4's (over 1.13.6, whose level 9 is not ported) at its default.
     */
    @ParameterizedTest
    @CsvSource({"1.14.2, -1", "1.14.2, 9", "1.13.6, -1"})
    void aRealPgzipLayerOfAnOlderCompressIsIdentifiedAndRebuilt(String compress, int level) throws Exception {
        byte[] layer = PgzipOracle.ofCompress(compress).gzip(level, BLOCK, TAR);

        TestCodec.RoundTrip trip = TestCodec.roundTrip(new LayerSplitter(StandardEncoders.identifier()),
                new LayerRebuilder(StandardEncoders.factory()), layer);

        assertThat(trip.split().identifications()).singleElement().extracting(id -> id.encoder().family()).isEqualTo(StandardEncoders.PGZIP);
        assertThat(trip.rebuilt()).isEqualTo(layer);
    }

    @ParameterizedTest
    @MethodSource("pgzipCandidates")
    void anotherReleaseAtTheSameLevelDiffersBeforeItWouldBeTakenOrNowhere(EncoderSpec spec) throws Exception {
        byte[] ours = deflate(spec, TAR);
        byte[] tellApart = deflate(spec, Arrays.copyOf(TAR, BLOCK + (256 << 10)));
        for (EncoderSpec other : pgzipCandidates()) {
            if (other.level() == spec.level() && !other.equals(spec)) {
                byte[] theirs = deflate(other, TAR);
                int firstDifference = Arrays.mismatch(ours, theirs);
                assertThat(firstDifference).as(other + " on a layer of " + spec)
                        .satisfiesAnyOf(at -> assertThat(at).isEqualTo(-1), at -> assertThat(at).isLessThan(tellApart.length));
            }
        }
    }

    private static byte[] deflate(EncoderSpec spec, byte[] input) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        var encoder = StandardEncoders.factory().create(spec, out);
        encoder.write(input, 0, input.length);
        encoder.finish();
        return out.toByteArray();
    }
}
