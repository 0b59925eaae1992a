package dev.layerfold.dedup.codec;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.io.IOException;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** For arbitrary bytes and arbitrary tar-shaped streams, split then rebuild gives back the same bytes. */
class SplitRebuildPropertyTest {

    @Property(tries = 150)
    void arbitraryBytesRebuildIdentically(@ForAll byte[] blob) throws IOException {
        assertThat(TestCodec.roundTrip(TestCodec.splitter(), blob).rebuilt()).isEqualTo(blob);
    }

    @Property(tries = 150)
    void arbitraryTarsRebuildIdenticallyAsPlainAndGzipLayers(@ForAll("tars") byte[] tar, @ForAll("levels") int level) throws IOException {
        assertThat(TestCodec.roundTrip(TestCodec.splitter(), tar).rebuilt()).isEqualTo(tar);
        byte[] gzip = TestCodec.gzipMember(tar, level);
        assertThat(TestCodec.roundTrip(TestCodec.splitter(), gzip).rebuilt()).isEqualTo(gzip);
    }

    @Provide
    Arbitrary<Integer> levels() {
        return Arbitraries.of(1, 6, 9);
    }

    @Provide
    Arbitrary<byte[]> tars() {
        Arbitrary<Entry> entry = Combinators.combine(Arbitraries.strings().ofMinLength(1).ofMaxLength(99).ascii(),
                Arbitraries.of('0', '5', '2', 'x', 'L', 'S', '7'), Arbitraries.bytes().array(byte[].class).ofMaxSize(3000),
                Arbitraries.of(true, false), Arbitraries.of((byte) 0, (byte) 0, (byte) 7)).as(Entry::new);
        return Combinators.combine(entry.list().ofMaxSize(8), Arbitraries.integers().between(0, 3),
                Arbitraries.bytes().array(byte[].class).ofMaxSize(600)).as(SplitRebuildPropertyTest::tar);
    }

    private record Entry(String name, char type, byte[] body, boolean base256, byte padding) {
    }

    private static byte[] tar(List<Entry> entries, int zeroBlocks, byte[] trailing) {
        TarBlocks tar = new TarBlocks();
        for (Entry e : entries) {
            tar.header(e.name(), e.type(), e.body().length, e.base256()).data(e.body(), e.padding());
        }
        return tar.raw(new byte[512 * zeroBlocks]).raw(trailing).bytes();
    }
}
