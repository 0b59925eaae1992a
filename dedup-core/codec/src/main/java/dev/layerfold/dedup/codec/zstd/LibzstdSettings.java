package dev.layerfold.dedup.codec.zstd;

import dev.layerfold.dedup.codec.recipe.EncoderSpec;

import java.util.List;

/**
 * How a C-library producer set up its compressor: the level, the worker threads (0: single-threaded
 * ZSTD_compressStream2; 1: multi-threaded, as the zstd CLI is by default, whose output is the same
 * for any number of workers), whether it pledged the content size, the checksum flag, and how it
 * ended the frame: with ZSTD_e_end on its last input (the CLI when it knows the size, programs that
 * know where their input ends), or with ZSTD_e_end after all its input went in with ZSTD_e_continue
 * (the CLI reading a pipe, streaming writers' close). The two differ only where libzstd had already
 * compressed every byte when told to end, which the second then ends with an empty block: an input
 * of whole 128 KiB blocks.
 */
record LibzstdSettings(int level, int workers, boolean pledgedSize, boolean checksum, boolean endsAfterInput) {

    EncoderSpec spec() {
        return EncoderSpec.of(ZstdEncoders.LIBZSTD, level, workers, pledgedSize ? 1 : 0, checksum ? 1 : 0, endsAfterInput ? 1 : 0);
    }

    LibzstdSettings endingAfterInput(boolean after) {
        return new LibzstdSettings(level, workers, pledgedSize, checksum, after);
    }

    static LibzstdSettings of(EncoderSpec spec) {
        if (!spec.family().equals(ZstdEncoders.LIBZSTD) || spec.params().size() != 4 || spec.params().get(0) < 0 || spec.params().get(0) > 1) {
            throw new IllegalArgumentException("not a " + ZstdEncoders.LIBZSTD + " encoder: " + spec);
        }
        List<Integer> p = spec.params();
        return new LibzstdSettings(spec.level(), p.get(0), p.get(1) == 1, p.get(2) == 1, p.get(3) == 1);
    }
}
