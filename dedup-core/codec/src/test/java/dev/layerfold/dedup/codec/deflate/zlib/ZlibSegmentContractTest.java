package dev.layerfold.dedup.codec.deflate.zlib;

import dev.layerfold.dedup.codec.family.EncoderFamily;
import dev.layerfold.dedup.codec.family.EncoderOracle;
import dev.layerfold.dedup.codec.family.SegmentEncoderContract;

/** zlib's segments against the system's libz stream. */
class ZlibSegmentContractTest extends SegmentEncoderContract {

    @Override
    protected EncoderFamily family() {
        return new ZlibFamily();
    }

    @Override
    protected EncoderOracle oracle() {
        return (spec, input) -> SystemZlib.get().run(new ZlibScript(ZlibSpec.decode(spec).settings()).deflate(input, ZlibFlush.FINISH));
    }
}
