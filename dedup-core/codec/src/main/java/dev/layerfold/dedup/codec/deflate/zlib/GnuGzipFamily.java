package dev.layerfold.dedup.codec.deflate.zlib;

import dev.layerfold.dedup.codec.container.GzipHeader;
import dev.layerfold.dedup.codec.deflate.DeflateEncoder;
import dev.layerfold.dedup.codec.family.EncoderFamily;
import dev.layerfold.dedup.codec.family.FirstBlock;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;
import dev.layerfold.dedup.codec.restart.RestartSupport;

import java.io.OutputStream;
import java.util.List;
import java.util.Optional;

/** {@value #NAME}: GNU gzip's own deflate; the level only (1..9). Scripts and older tools. */
public final class GnuGzipFamily implements EncoderFamily {

    public static final String NAME = "gzip";
    private static final List<Integer> LEVEL_ORDER = List.of(6, 9, 1, 2, 3, 4, 5, 7, 8);
    /** After zlib and pigz. */
    private static final int RANK = 4000;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<Candidate> candidates() {
        return Candidate.levels(NAME, LEVEL_ORDER, RANK, 1);
    }

    @Override
    public GnuGzipSpec decode(EncoderSpec spec) {
        return GnuGzipSpec.decode(spec);
    }

    @Override
    public DeflateEncoder encoder(EncoderSpec spec, OutputStream sink) {
        return GnuGzipEncoder.create(sink, GnuGzipSpec.decode(spec).level());
    }

    /**
     * At 32767 symbols, or, from level 3, at a multiple of 4096 symbols where its {@code ct_tally()}
     * guesses ending pays: under half the symbols are matches and their bound ({@code 8} bits per
     * symbol plus {@code 5 + extra} per distance) is under half the input.
     */
    @Override
    public boolean couldHaveWritten(EncoderSpec spec, FirstBlock first) {
        return first.symbols() == 32767 || spec.level() >= 3 && first.symbols() % 4096 == 0 && wouldEndBlock(first);
    }

    /**
     * Trees.gnuGzipWouldEndBlock at the block's last symbol. gzip takes the input length at its
     * current position, at most the block's input, so checking against the whole input only
     * loosens the test.
     */
    private static boolean wouldEndBlock(FirstBlock first) {
        long outLength = (first.symbols() * 8 + first.distanceBits()) >>> 3;
        return first.matches() < first.symbols() / 2 && outLength < first.inputBytes() / 2;
    }

    @Override
    public int osScore(EncoderSpec spec, int os) {
        return os == GzipHeader.OS_UNIX ? 3 : 0;
    }

    /**
     * Levels 4 to 9 and 1 to 3 as {@link ZlibFamily}'s with zlib's defaults, a block also ending where
     * GNU gzip guesses ending pays.
     */
    @Override
    public Optional<RestartSupport> restart(EncoderSpec spec) {
        return spec.params().isEmpty() && LazySegmentEncoder.restartable(spec.level())
                ? Optional.of(ZlibFamily.lazy(LazySegmentEncoder.Deflate.GNU_GZIP, spec.level())) : Optional.empty();
    }
}
