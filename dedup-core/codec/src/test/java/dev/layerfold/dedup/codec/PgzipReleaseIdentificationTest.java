package dev.layerfold.dedup.codec;

import dev.layerfold.dedup.codec.deflate.golang.TestInputs;
import dev.layerfold.dedup.codec.deflate.klauspost.FlateRelease;
import dev.layerfold.dedup.codec.deflate.klauspost.PgzipOracle;
import dev.layerfold.dedup.codec.identify.Identification;
import dev.layerfold.dedup.codec.identify.StandardEncoders;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
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
    private static final byte[] TAR = TestInputs.tarOf(TestInputs.docs(), 3_000_000);

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

    /**
     * buildah 1.28 (Debian 12: pgzip over klauspost/compress 1.15.12, at its default level 5) on a layer
     * that starts with a file of base64 text: Go 1.27's level 6 writes the same bytes through it, more
     * than the 64 KiB after which a last candidate left is taken, and was taken before the pgzip
     * candidate could tell them apart at the first block boundary; the rebuild then failed and the layer
     * stayed intact ("rebuild mismatch"), as the e2e client matrix found.
     */
    @Test
    void pgzipsDefaultLevelIsToldApartFromGo127sLevel6ThatAgreesWithItForLong() throws Exception {
        byte[] random = new byte[200_000];
        new Random(28).nextBytes(random);
        StringBuilder text = new StringBuilder();
        for (int i = 0; text.length() < 2_700_000; i++) {
            text.append("line ").append(i).append(": value ").append(i * 7919 % 100_003).append('\n');
        }
        ByteArrayOutputStream tarBytes = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(tarBytes)) {
            for (var file : List.of(Map.entry("etc/shared.bin", Base64.getMimeEncoder().encode(random)),
                    Map.entry("program", text.toString().getBytes(StandardCharsets.US_ASCII)))) {
                TarArchiveEntry entry = new TarArchiveEntry(file.getKey());
                entry.setSize(file.getValue().length);
                tar.putArchiveEntry(entry);
                tar.write(file.getValue());
                tar.closeArchiveEntry();
            }
        }
        EncoderSpec buildah = EncoderSpec.of(StandardEncoders.PGZIP, -1, BLOCK, 11800);
        byte[] layer = TestCodec.gzipMember(tarBytes.toByteArray(), out -> StandardEncoders.factory().create(buildah, out));

        TestCodec.RoundTrip trip = TestCodec.roundTrip(new LayerSplitter(StandardEncoders.identifier()),
                new LayerRebuilder(StandardEncoders.factory()), layer);

        assertThat(trip.split().identifications()).singleElement().extracting(Identification::encoder).isEqualTo(buildah);
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
