package dev.layerfold.dedup.codec.deflate.pigz;

import dev.layerfold.dedup.codec.family.EncoderFamily;
import dev.layerfold.dedup.codec.family.EncoderOracle;
import dev.layerfold.dedup.codec.family.SegmentEncoderContract;

/** pigz's segments against the pigz binary's stream. */
class PigzSegmentContractTest extends SegmentEncoderContract {

    @Override
    protected EncoderFamily family() {
        return new PigzFamily();
    }

    @Override
    protected EncoderOracle oracle() {
        return (spec, input) -> Pigz.deflate(PigzFamily.settings(spec), input);
    }
}
