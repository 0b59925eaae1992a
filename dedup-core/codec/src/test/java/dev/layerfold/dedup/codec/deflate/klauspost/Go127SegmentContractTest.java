package dev.layerfold.dedup.codec.deflate.klauspost;

import dev.layerfold.dedup.codec.family.EncoderFamily;
import dev.layerfold.dedup.codec.family.EncoderOracle;
import dev.layerfold.dedup.codec.family.SegmentEncoderContract;

/** Go 1.27's segments against Go 1.27's own stream. */
class Go127SegmentContractTest extends SegmentEncoderContract {

    @Override
    protected EncoderFamily family() {
        return new Go127Family();
    }

    @Override
    protected EncoderOracle oracle() {
        return (spec, input) -> Go127Oracle.get().compress(spec.level(), input);
    }
}
