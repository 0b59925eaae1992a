package dev.layerfold.dedup.codec.deflate.golang;

import dev.layerfold.dedup.codec.family.EncoderFamily;
import dev.layerfold.dedup.codec.family.EncoderOracle;
import dev.layerfold.dedup.codec.family.SegmentEncoderContract;

/** Go 1.8-1.26's segments against the installed Go toolchain's stream. */
class GoSegmentContractTest extends SegmentEncoderContract {

    @Override
    protected EncoderFamily family() {
        return new GoFamily();
    }

    @Override
    protected EncoderOracle oracle() {
        return (spec, input) -> GoFlateOracle.get().compress(spec.level(), input);
    }
}
