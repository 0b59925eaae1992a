package dev.layerfold.dedup.codec.deflate.klauspost;

import dev.layerfold.dedup.codec.family.EncoderContract;
import dev.layerfold.dedup.codec.family.EncoderFamily;
import dev.layerfold.dedup.codec.family.EncoderOracle;

/** Go 1.27's compress/flate against Go 1.27's own. */
class Go127EncoderContractTest extends EncoderContract {

    @Override
    protected EncoderFamily family() {
        return new Go127Family();
    }

    @Override
    protected EncoderOracle oracle() {
        return (spec, input) -> Go127Oracle.get().compress(spec.level(), input);
    }
}
