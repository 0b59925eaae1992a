package dev.layerfold.dedup.codec.deflate.klauspost;

import dev.layerfold.dedup.codec.family.EncoderContract;
import dev.layerfold.dedup.codec.family.EncoderFamily;
import dev.layerfold.dedup.codec.family.EncoderOracle;

/** pgzip against pgzip built over the klauspost/compress release each spec names. */
class PgzipEncoderContractTest extends EncoderContract {

    @Override
    protected EncoderFamily family() {
        return new PgzipFamily();
    }

    @Override
    protected EncoderOracle oracle() {
        return (spec, input) -> {
            PgzipSpec pgzip = PgzipSpec.decode(spec);
            return PgzipOracle.of(pgzip.release()).deflate(pgzip.level(), pgzip.blockSize(), input);
        };
    }
}
