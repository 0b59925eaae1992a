package dev.layerfold.dedup.codec.deflate.zlib;

import dev.layerfold.dedup.codec.family.EncoderContract;
import dev.layerfold.dedup.codec.family.EncoderFamily;
import dev.layerfold.dedup.codec.family.EncoderOracle;

/** zlib against the system's libz, all input in one deflate() call. */
class ZlibEncoderContractTest extends EncoderContract {

    @Override
    protected EncoderFamily family() {
        return new ZlibFamily();
    }

    @Override
    protected EncoderOracle oracle() {
        return (spec, input) -> SystemZlib.get().run(new ZlibScript(ZlibSpec.decode(spec).settings()).deflate(input, ZlibFlush.FINISH));
    }
}
