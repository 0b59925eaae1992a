package dev.layerfold.dedup.codec.deflate.zlib;

import dev.layerfold.dedup.codec.family.EncoderContract;
import dev.layerfold.dedup.codec.family.EncoderFamily;
import dev.layerfold.dedup.codec.family.EncoderOracle;

/** GNU gzip's deflate against the gzip binary. */
class GnuGzipEncoderContractTest extends EncoderContract {

    @Override
    protected EncoderFamily family() {
        return new GnuGzipFamily();
    }

    @Override
    protected EncoderOracle oracle() {
        return (spec, input) -> GnuGzip.deflate(GnuGzipSpec.decode(spec).level(), input);
    }
}
