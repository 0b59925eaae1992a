package dev.layerfold.dedup.codec.deflate.klauspost;

import dev.layerfold.dedup.codec.family.EncoderFamily;
import dev.layerfold.dedup.codec.family.EncoderOracle;
import dev.layerfold.dedup.codec.family.SegmentEncoderContract;

/** pgzip's segments against pgzip's own stream. */
class PgzipSegmentContractTest extends SegmentEncoderContract {

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
