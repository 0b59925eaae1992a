package dev.layerfold.dedup.codec.deflate.golang;

import dev.layerfold.dedup.codec.family.EncoderContract;
import dev.layerfold.dedup.codec.family.EncoderFamily;
import dev.layerfold.dedup.codec.family.EncoderOracle;

/** Go 1.8-1.26's compress/flate against the installed Go toolchain's. */
class GoEncoderContractTest extends EncoderContract {

    @Override
    protected EncoderFamily family() {
        return new GoFamily();
    }

    @Override
    protected EncoderOracle oracle() {
        return (spec, input) -> GoFlateOracle.get().compress(spec.level(), input);
    }
}
