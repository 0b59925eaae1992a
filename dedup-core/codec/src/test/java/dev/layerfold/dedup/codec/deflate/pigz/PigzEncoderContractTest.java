package dev.layerfold.dedup.codec.deflate.pigz;

import dev.layerfold.dedup.codec.family.EncoderContract;
import dev.layerfold.dedup.codec.family.EncoderFamily;
import dev.layerfold.dedup.codec.family.EncoderOracle;

/** pigz against the pigz binary. */
class PigzEncoderContractTest extends EncoderContract {

    @Override
    protected EncoderFamily family() {
        return new PigzFamily();
    }

    @Override
    protected EncoderOracle oracle() {
        return (spec, input) -> Pigz.deflate(PigzFamily.settings(spec), input);
    }
}
