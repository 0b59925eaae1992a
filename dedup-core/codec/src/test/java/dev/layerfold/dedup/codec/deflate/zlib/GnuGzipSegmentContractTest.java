package dev.layerfold.dedup.codec.deflate.zlib;

import dev.layerfold.dedup.codec.family.EncoderFamily;
import dev.layerfold.dedup.codec.family.EncoderOracle;
import dev.layerfold.dedup.codec.family.SegmentEncoderContract;

/** GNU gzip's segments against the gzip binary's stream. */
class GnuGzipSegmentContractTest extends SegmentEncoderContract {

    @Override
    protected EncoderFamily family() {
        return new GnuGzipFamily();
    }

    @Override
    protected EncoderOracle oracle() {
        return (spec, input) -> GnuGzip.deflate(GnuGzipSpec.decode(spec).level(), input);
    }
}
