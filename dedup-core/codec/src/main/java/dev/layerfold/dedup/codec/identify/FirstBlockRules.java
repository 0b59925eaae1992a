package dev.layerfold.dedup.codec.identify;

import dev.layerfold.dedup.codec.recipe.EncoderSpec;
import java.util.List;

/**
 * Where each standard encoder ends a Huffman block that is not the stream's last, when nothing
 * flushes it (as every gzip producer writes a member):
 * <ul>
 *   <li>zlib and pigz: when the symbol buffer holds {@code (1 << (memLevel + 6)) - 1} symbols (16383
 *       by default); pigz also at the end of each of its blocks of input;</li>
 *   <li>GNU gzip: at 32767 symbols, or, from level 3, at a multiple of 4096 symbols where its
 *       {@code ct_tally()} guesses ending pays: under half the symbols are matches and their bound
 *       ({@code 8} bits per symbol plus {@code 5 + extra} per distance) is under half the input;</li>
 *   <li>Go 1.8 to 1.26: at 16384 tokens (levels 2 to 9), after each 65535-byte window (level 1 and
 *       Huffman-only);</li>
 *   <li>Go 1.27: after a whole number of 65535-byte windows (levels 1 to 6, a table may span several),
 *       at a whole number of 32768 tokens (7 to 9), of 32768-byte windows (Huffman-only);</li>
 *   <li>pgzip: as Go 1.27 within each of its blocks, which end with a flush;</li>
 *   <li>level 0 of any of them writes stored blocks only.</li>
 * </ul>
 * A candidate whose rule the original's first block breaks cannot have written it and is not run.
 * Families without a rule here are always run.
 */
final class FirstBlockRules {

    private FirstBlockRules() {
    }

    static boolean couldHaveWritten(EncoderSpec spec, FirstBlock first) {
        if (!first.endedByEncoder()) {
            return true;
        }
        long symbols = first.symbols();
        long input = first.inputBytes();
        int level = spec.level();
        List<Integer> params = spec.params();
        return switch (spec.family()) {
            case StandardEncoders.ZLIB -> level != 0 && symbols == symbolBuffer(params.isEmpty() ? 8 : params.get(0));
            case StandardEncoders.PIGZ -> level != 0 && (symbols == symbolBuffer(8) || input % params.get(0) == 0);
            case StandardEncoders.GNU_GZIP -> symbols == 32767 || level >= 3 && symbols % 4096 == 0 && gnuGzipGuess(first);
            case StandardEncoders.GO -> switch (level) {
                case 0 -> false;
                case 1, -2 -> input == 65535;
                default -> symbols == 16384;
            };
            case StandardEncoders.GO127, StandardEncoders.PGZIP -> switch (spec.family().equals(StandardEncoders.PGZIP) && level == -1 ? 5 : level) {
                case 0 -> false;
                case -2 -> input % 32768 == 0;
                case 7, 8, 9 -> symbols % 32768 == 0;
                default -> input % 65535 == 0;
            };
            default -> true;
        };
    }

    /**
     * Trees.gnuGzipWouldEndBlock at the block's last symbol. gzip takes the input length at its
     * current position, at most the block's input, so checking against the whole input only
     * loosens the test.
     */
    private static boolean gnuGzipGuess(FirstBlock first) {
        long outLength = (first.symbols() * 8 + first.distanceBits()) >>> 3;
        return first.matches() < first.symbols() / 2 && outLength < first.inputBytes() / 2;
    }

    private static long symbolBuffer(int memLevel) {
        return (1L << (memLevel + 6)) - 1;
    }
}
