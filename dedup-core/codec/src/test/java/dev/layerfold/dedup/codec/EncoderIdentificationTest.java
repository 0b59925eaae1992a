package dev.layerfold.dedup.codec;

import dev.layerfold.dedup.codec.container.BlobInput;
import dev.layerfold.dedup.codec.container.GzipHeader;
import dev.layerfold.dedup.codec.identify.EncoderFamilies;
import dev.layerfold.dedup.codec.identify.EncoderIdentifier;
import dev.layerfold.dedup.codec.identify.Identification;
import dev.layerfold.dedup.codec.io.FileSink;
import dev.layerfold.dedup.codec.io.LayerRebuildException;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EncoderIdentificationTest {

    private static final byte[] TEXT = text(2_000_000);

    @ParameterizedTest
    @ValueSource(ints = {1, 6, 9})
    void identifiesTheLevelThatWroteTheMember(int level) throws Exception {
        byte[] layer = TestCodec.gzipMember(DamagedLayerTest.tarWithOneFile(TEXT), level);

        TestCodec.RoundTrip trip = TestCodec.roundTrip(TestCodec.splitter(), layer);

        assertThat(trip.split().identifications()).singleElement().extracting(Identification::encoder).isEqualTo(TestCodec.jdk(level));
        assertThat(trip.rebuilt()).isEqualTo(layer);
    }

    @Test
    void theLikeliestCandidateRunsAloneAndTheOthersStartOnlyIfItIsRejected() throws Exception {
        byte[] hintedRight = TestCodec.gzipMember(DamagedLayerTest.tarWithOneFile(TEXT), 6);
        byte[] hintedWrong = TestCodec.gzipMember(DamagedLayerTest.tarWithOneFile(TEXT), 1);

        Identification right = TestCodec.splitter().split(TestCodec.stream(hintedRight), FileSink.discarding()).identifications().getFirst();
        Identification wrong = TestCodec.splitter().split(TestCodec.stream(hintedWrong), FileSink.discarding()).identifications().getFirst();

        assertThat(right.encoder()).isEqualTo(TestCodec.jdk(6));
        assertThat(right.candidates()).isEqualTo(1);
        assertThat(wrong.encoder()).isEqualTo(TestCodec.jdk(1));
        assertThat(wrong.candidates()).isEqualTo(TestCodec.CANDIDATES.size());
    }

    @Test
    void wrongCandidatesAreRejectedWithinTheFirstBlocks() throws Exception {
        byte[] layer = TestCodec.gzipMember(DamagedLayerTest.tarWithOneFile(TEXT), 6);
        EncoderIdentifier wrongOnly = new EncoderIdentifier(List.of(TestCodec.jdk(1), TestCodec.jdk(9), TestCodec.jdk(3)), TestCodec.FACTORY,
                EncoderIdentifier.DEFAULT_BUDGET);

        SplitResult split = new LayerSplitter(wrongOnly).split(TestCodec.stream(layer), FileSink.discarding());

        Identification identification = split.identifications().getFirst();
        assertThat(identification.encoder()).isEqualTo(EncoderSpec.NONE);
        assertThat(identification.comparedBytes()).as("decompressed bytes fed before every candidate was dropped").isLessThan(512 * 1024);
    }

    @Test
    void aLayerNothingReproducesHasARecipeThatSaysSoAndCannotBeRebuilt() throws Exception {
        byte[] layer = TestCodec.gzipMember(DamagedLayerTest.tarWithOneFile(TEXT), 4);
        MemoryFileStore store = new MemoryFileStore();

        SplitResult split = TestCodec.splitter().split(TestCodec.stream(layer), store);

        assertThat(split.recipe().reproducible()).isFalse();
        assertThatThrownBy(() -> TestCodec.rebuilder().rebuild(split.recipe(), store, new ByteArrayOutputStream()))
                .isInstanceOf(LayerRebuildException.class).hasMessageContaining("no known encoder reproduces its gzip member 0");
    }

    @Test
    void identificationStopsAtItsBudgetAndTheRebuildProvesTheRest() throws Exception {
        byte[] layer = TestCodec.gzipMember(DamagedLayerTest.tarWithOneFile(TEXT), 9);

        TestCodec.RoundTrip trip = TestCodec.roundTrip(TestCodec.splitter(256 * 1024), layer);

        Identification identification = trip.split().identifications().getFirst();
        assertThat(identification.wholeStream()).isFalse();
        assertThat(identification.comparedBytes()).isLessThan(TEXT.length / 4);
        assertThat(identification.encoder()).isEqualTo(TestCodec.jdk(9));
        assertThat(trip.rebuilt()).isEqualTo(layer);
    }

    @Test
    void headerHintsPutTheLikelyProducerFirst() throws IOException {
        List<EncoderSpec> candidates = List.of(EncoderSpec.of("go", 6), EncoderSpec.of("go", 1), EncoderSpec.of("go", 9), EncoderSpec.of("zlib", 6),
                EncoderSpec.of("zlib", 9), EncoderSpec.of("pigz", 9, 131072), EncoderSpec.of("pigz", 6, 131072));
        // The families own their header habits: the hints come from the standard families, whose encoders this never runs.
        EncoderIdentifier identifier = new EncoderIdentifier(candidates, EncoderFamilies.standard(), 1);

        assertThat(identifier.order(header(0, 255)).getFirst()).isEqualTo(EncoderSpec.of("go", 6));
        assertThat(identifier.order(header(4, 255)).getFirst()).isEqualTo(EncoderSpec.of("go", 1));
        assertThat(identifier.order(header(2, 255)).getFirst()).isEqualTo(EncoderSpec.of("go", 9));
        assertThat(identifier.order(header(2, 3)).getFirst()).isEqualTo(EncoderSpec.of("pigz", 9, 131072));
        assertThat(identifier.order(header(0, 3)).getFirst()).isEqualTo(EncoderSpec.of("pigz", 6, 131072));
        assertThat(identifier.order(header(0, 0)).getFirst()).isEqualTo(EncoderSpec.of("zlib", 6));
    }

    private static GzipHeader header(int xfl, int os) throws IOException {
        byte[] bytes = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, (byte) xfl, (byte) os};
        return GzipHeader.read(new BlobInput(TestCodec.stream(bytes), 64, false));
    }

    private static byte[] text(int size) {
        StringBuilder text = new StringBuilder(size + 100);
        java.util.Random random = new java.util.Random(42);
        String[] words = {"layer", "registry", "deflate", "tar", "header", "file", "content", "digest", "manifest", "blob", "the", "of"};
        while (text.length() < size) {
            text.append(words[random.nextInt(words.length)]).append(random.nextInt(100_000)).append(random.nextInt(10) == 0 ? ".\n" : " ");
        }
        return text.substring(0, size).getBytes(StandardCharsets.US_ASCII);
    }
}
