package dev.layerfold.dedup.codec.deflate.zlib;

import static dev.layerfold.dedup.codec.deflate.zlib.DeflateAssertions.assertSameStream;

import java.io.IOException;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/** For arbitrary inputs, settings, flushes and write sizes the port writes what the system zlib writes. */
class ZlibEncoderPropertyTest {

    record Segment(byte[] data, ZlibFlush flush) {
        @Override
        public String toString() {
            return data.length + " bytes then " + flush;
        }
    }

    @Property(tries = 150)
    void portEqualsSystemZlib(@ForAll @IntRange(min = 0, max = 9) int level,
                              @ForAll ZlibStrategy strategy,
                              @ForAll @IntRange(min = 1, max = 9) int memLevel,
                              @ForAll @IntRange(min = 9, max = 15) int windowBits,
                              @ForAll @IntRange(min = 0, max = 40_000) int dictionaryLength,
                              @ForAll("segments") List<Segment> segments,
                              @ForAll @IntRange(min = 1, max = 70_000) int writeSize) throws IOException {
        ZlibScript script = new ZlibScript(new ZlibSettings(level, memLevel, windowBits, strategy));
        if (dictionaryLength > 0) {
            script.dictionary(ReferenceInputs.text(dictionaryLength, dictionaryLength));
        }
        for (Segment segment : segments) {
            // At level 0 zlib's output depends on how much input one deflate() call sees; the port
            // reproduces a caller that flushes after each call, so an unflushed segment is not comparable.
            boolean unflushedStored = level == 0 && segment.flush() == ZlibFlush.NO_FLUSH;
            if (level == 0) {
                script.deflate(segment.data(), unflushedStored ? ZlibFlush.BLOCK : segment.flush());
            } else {
                deflateInWrites(script, segment.data(), writeSize, segment.flush());
            }
        }
        script.deflate(new byte[0], ZlibFlush.FINISH);
        assertSameStream(SystemZlib.get().run(script), script.runOnPort(writeSize), script.toString());
    }

    /**
     * One deflate() call per write, on both sides: with a window smaller than the input, when zlib
     * slides its window depends on how much input each call brings, and with it whether a block may
     * still be stored (windowBits 10, memLevel 4: 140 of 300 random inputs differ between one call and
     * calls of 183 bytes, in Python's zlib 1.2.13 too). With gzip's window of 32 KiB none did.
     */
    private static void deflateInWrites(ZlibScript script, byte[] data, int writeSize, ZlibFlush flush) {
        for (int from = 0; from + writeSize < data.length; from += writeSize) {
            script.deflate(ZlibScript.slice(data, from, from + writeSize), ZlibFlush.NO_FLUSH);
        }
        int last = data.length == 0 ? 0 : (data.length - 1) / writeSize * writeSize;
        script.deflate(ZlibScript.slice(data, last, data.length), flush);
    }

    @Provide
    Arbitrary<List<Segment>> segments() {
        Arbitrary<byte[]> data = Arbitraries.oneOf(
                Arbitraries.bytes().array(byte[].class).ofMaxSize(5_000),
                Arbitraries.bytes().between((byte) 'a', (byte) 'd').array(byte[].class).ofMaxSize(40_000),
                Arbitraries.integers().between(0, 80_000).map(n -> ReferenceInputs.text(n, n)),
                Arbitraries.integers().between(0, 80_000).map(ReferenceInputs::repetitive));
        Arbitrary<ZlibFlush> flush = Arbitraries.of(ZlibFlush.NO_FLUSH, ZlibFlush.NO_FLUSH, ZlibFlush.SYNC_FLUSH,
                ZlibFlush.FULL_FLUSH, ZlibFlush.PARTIAL_FLUSH, ZlibFlush.BLOCK);
        return Combinators.combine(data, flush).as(Segment::new).list().ofMinSize(1).ofMaxSize(4);
    }
}
