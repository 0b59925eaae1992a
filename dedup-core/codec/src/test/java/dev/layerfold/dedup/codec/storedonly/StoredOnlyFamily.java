package dev.layerfold.dedup.codec.storedonly;

import dev.layerfold.dedup.codec.deflate.DeflateEncoder;
import dev.layerfold.dedup.codec.family.EncoderFamily;
import dev.layerfold.dedup.codec.family.FamilySpec;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * A made-up encoder family: DEFLATE of stored blocks only, each holding at most the spec's level
 * times 1000 bytes, the last one marked final. No real producer writes it (zlib and Go store 65535
 * bytes a block), so only this family reproduces its members: everything the codec needs of it is here.
 */
final class StoredOnlyFamily implements EncoderFamily {

    static final String NAME = "stored-only";

    static EncoderSpec spec(int kilobytes) {
        return EncoderSpec.of(NAME, kilobytes);
    }

    @Override
    public String name() {
        return NAME;
    }

    /** Tried after every standard candidate. */
    @Override
    public List<Candidate> candidates() {
        return List.of(new Candidate(spec(1), 10_000), new Candidate(spec(4), 10_001));
    }

    /** The level is the block size in thousands of bytes. */
    record StoredOnlySpec(int thousands) implements FamilySpec {
        @Override
        public EncoderSpec stored() {
            return spec(thousands);
        }
    }

    @Override
    public StoredOnlySpec decode(EncoderSpec spec) {
        if (spec.level() < 1 || spec.level() > 65 || !spec.params().isEmpty()) {
            throw new IllegalArgumentException("encoder " + spec + " needs a block size of 1 to 65 thousand bytes and no parameters");
        }
        return new StoredOnlySpec(spec.level());
    }

    @Override
    public DeflateEncoder encoder(EncoderSpec spec, OutputStream sink) {
        return new StoredBlocks(sink, decode(spec).thousands() * 1000);
    }

    /** Holds one block's input back until more arrives, so the last block can be marked final. */
    private static final class StoredBlocks implements DeflateEncoder {
        private final OutputStream sink;
        private final byte[] block;
        private int filled;

        StoredBlocks(OutputStream sink, int blockSize) {
            this.sink = sink;
            this.block = new byte[blockSize];
        }

        @Override
        public void write(byte[] data, int offset, int length) throws IOException {
            while (length > 0) {
                if (filled == block.length) {
                    emit(false);
                }
                int n = Math.min(length, block.length - filled);
                System.arraycopy(data, offset, block, filled, n);
                filled += n;
                offset += n;
                length -= n;
            }
        }

        @Override
        public void finish() throws IOException {
            emit(true);
        }

        /** RFC 1951 3.2.4: BFINAL and BTYPE 00 in a byte of its own (output stays byte aligned), LEN, NLEN, the bytes. */
        private void emit(boolean last) throws IOException {
            sink.write(last ? 1 : 0);
            sink.write(filled);
            sink.write(filled >>> 8);
            sink.write(~filled);
            sink.write(~filled >>> 8);
            sink.write(block, 0, filled);
            filled = 0;
        }
    }
}
