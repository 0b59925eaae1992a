package dev.layerfold.dedup.codec.family;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.Optional;

/**
 * The shape of a deflate stream's first block: its type, whether it is the last, and for a Huffman
 * block how many symbols (literals and matches, not the end-of-block code) it holds and how many
 * uncompressed bytes they stand for, how many of them are matches and what zlib's ancestor would
 * count for their distances ({@code 5 + extra bits} each). Each encoder ends blocks by its own rule (a symbol buffer, a
 * 64 KiB window), so the shape rules out most candidates before any of them compresses a byte.
 *
 * <p>{@link Reader} decodes it from the original deflate bytes as they arrive, keeping at most
 * {@link #MAX_BYTES} of them: a first block longer than that is left undecided. It keeps the block's
 * symbols too, as {@link #tokens()}: the first tokens of the encoder that wrote it.
 */
public record FirstBlock(int type, boolean last, long symbols, long inputBytes, long matches, long distanceBits,
                  boolean followedByEmptyBlock, int[] tokens) {

    public static final int STORED = 0;
    static final int FIXED = 1;
    static final int DYNAMIC = 2;
    static final int MAX_BYTES = 1 << 20;

    /**
     * A block of Huffman codes that the encoder itself ended: not the stream's last, and not followed
     * by an empty block (a flush, or Go's separate empty final block after the data's last block).
     */
    public boolean endedByEncoder() {
        return !last && type != STORED && !followedByEmptyBlock;
    }

    /** A literal as its byte value, a match as {@code length << 16 | distance}, as {@code identify.FirstTokens} compares them. */
    public static int matchToken(int length, int distance) {
        return length << 16 | distance;
    }

    /** Decodes the first block from the deflate bytes appended so far. Not thread-safe. */
    public static final class Reader {

        private static final int[] ORDER = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
        private static final int[] LENGTH_BASE = {
            3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
        private static final int[] LENGTH_EXTRA = {
            0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
        private static final int[] DIST_BASE = {
            1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
            8193, 12289, 16385, 24577};
        private static final int[] DIST_EXTRA = {
            0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        /** Retry decoding once this many bytes are there: a long block is decoded a few times, not per chunk. */
        private int retryAt = 1 << 14;
        private boolean gaveUp;
        private FirstBlock decoded;

        /** Appends original deflate bytes; returns the first block once it is complete. */
        public Optional<FirstBlock> append(byte[] data, int offset, int length) {
            if (decoded != null || gaveUp) {
                return Optional.ofNullable(decoded);
            }
            bytes.write(data, offset, Math.min(length, MAX_BYTES - bytes.size()));
            if (bytes.size() >= retryAt || bytes.size() >= MAX_BYTES) {
                decoded = tryDecode();
                retryAt = bytes.size() * 2;
                if (decoded == null && bytes.size() >= MAX_BYTES) {
                    gaveUp = true;
                }
            }
            return Optional.ofNullable(decoded);
        }

        /** The stream ended: decode what there is (a whole stream holds its first block). */
        public Optional<FirstBlock> finish() {
            if (decoded == null && !gaveUp) {
                decoded = tryDecode();
                gaveUp = decoded == null;
            }
            return Optional.ofNullable(decoded);
        }

        /** True once the first block is known or cannot be. */
        public boolean decided() {
            return decoded != null || gaveUp;
        }

        private FirstBlock tryDecode() {
            try {
                return new Decoder(bytes.toByteArray()).block();
            } catch (IndexOutOfBoundsException | IllegalStateException e) {
                // Not all of the block is here yet (or it is not valid deflate, which the inflater reports).
                return null;
            }
        }

        /** puff.c's decoder, reduced to counting: canonical codes decoded a bit at a time. */
        private static final class Decoder {
            private final byte[] in;
            private int pos;
            private int bitBuf;
            private int bitCount;

            Decoder(byte[] in) {
                this.in = in;
            }

            private int bits(int need) {
                int val = bitBuf;
                while (bitCount < need) {
                    val |= (in[pos++] & 0xff) << bitCount;
                    bitCount += 8;
                }
                bitBuf = val >>> need;
                bitCount -= need;
                return val & ((1 << need) - 1);
            }

            FirstBlock block() {
                boolean last = bits(1) == 1;
                int type = bits(2);
                switch (type) {
                    case STORED -> {
                        bitBuf = 0;
                        bitCount = 0;
                        int len = (in[pos] & 0xff) | (in[pos + 1] & 0xff) << 8;
                        return new FirstBlock(STORED, last, 0, len, 0, 0, false, new int[0]);
                    }
                    case FIXED -> {
                        int[] lengths = new int[288 + 30];
                        for (int s = 0; s < 288; s++) {
                            lengths[s] = s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8;
                        }
                        for (int s = 0; s < 30; s++) {
                            lengths[288 + s] = 5;
                        }
                        return codes(FIXED, last, new Huffman(lengths, 0, 288), new Huffman(lengths, 288, 30));
                    }
                    case DYNAMIC -> {
                        int nlen = bits(5) + 257;
                        int ndist = bits(5) + 1;
                        int ncode = bits(4) + 4;
                        int[] lengths = new int[19];
                        for (int i = 0; i < ncode; i++) {
                            lengths[ORDER[i]] = bits(3);
                        }
                        Huffman lencode = new Huffman(lengths, 0, 19);
                        int[] all = new int[nlen + ndist];
                        for (int index = 0; index < nlen + ndist; ) {
                            int symbol = lencode.decode(this);
                            if (symbol < 16) {
                                all[index++] = symbol;
                                continue;
                            }
                            int len = 0;
                            int repeat;
                            if (symbol == 16) {
                                if (index == 0) {
                                    throw new IllegalStateException("repeat with no previous length");
                                }
                                len = all[index - 1];
                                repeat = 3 + bits(2);
                            } else if (symbol == 17) {
                                repeat = 3 + bits(3);
                            } else {
                                repeat = 11 + bits(7);
                            }
                            if (index + repeat > nlen + ndist) {
                                throw new IllegalStateException("too many lengths");
                            }
                            while (repeat-- > 0) {
                                all[index++] = len;
                            }
                        }
                        return codes(DYNAMIC, last, new Huffman(all, 0, nlen), new Huffman(all, nlen, ndist));
                    }
                    default -> throw new IllegalStateException("invalid block type");
                }
            }

            /** An empty stored block (a sync flush) or an empty fixed block (Go's final block) next. */
            private boolean nextBlockIsEmpty() {
                bits(1);
                int type = bits(2);
                if (type == STORED) {
                    bitBuf = 0;
                    bitCount = 0;
                    return ((in[pos] & 0xff) | (in[pos + 1] & 0xff) << 8) == 0;
                }
                // Fixed code 256 (end of block) is seven zero bits.
                return type == FIXED && bits(7) == 0;
            }

            private FirstBlock codes(int type, boolean last, Huffman lencode, Huffman distcode) {
                long symbols = 0;
                long produced = 0;
                long matches = 0;
                long distanceBits = 0;
                int[] tokens = new int[1024];
                while (true) {
                    int symbol = lencode.decode(this);
                    if (symbols == tokens.length) {
                        tokens = Arrays.copyOf(tokens, tokens.length * 2);
                    }
                    if (symbol < 256) {
                        tokens[(int) symbols] = symbol;
                        symbols++;
                        produced++;
                    } else if (symbol == 256) {
                        return new FirstBlock(type, last, symbols, produced, matches, distanceBits, !last && nextBlockIsEmpty(),
                                Arrays.copyOf(tokens, (int) symbols));
                    } else {
                        symbol -= 257;
                        if (symbol >= 29) {
                            throw new IllegalStateException("invalid length symbol");
                        }
                        int length = LENGTH_BASE[symbol] + bits(LENGTH_EXTRA[symbol]);
                        produced += length;
                        int dist = distcode.decode(this);
                        if (dist >= 30) {
                            throw new IllegalStateException("invalid distance symbol");
                        }
                        tokens[(int) symbols] = matchToken(length, DIST_BASE[dist] + bits(DIST_EXTRA[dist]));
                        symbols++;
                        matches++;
                        distanceBits += 5 + DIST_EXTRA[dist];
                    }
                }
            }
        }

        /** A canonical Huffman code as counts per length and symbols in code order (puff.c). */
        private static final class Huffman {
            private final int[] count = new int[16];
            private final int[] symbol;

            Huffman(int[] lengths, int from, int n) {
                symbol = new int[n];
                for (int s = 0; s < n; s++) {
                    count[lengths[from + s]]++;
                }
                int[] offs = new int[16];
                for (int len = 1; len < 15; len++) {
                    offs[len + 1] = offs[len] + count[len];
                }
                for (int s = 0; s < n; s++) {
                    if (lengths[from + s] != 0) {
                        symbol[offs[lengths[from + s]]++] = s;
                    }
                }
            }

            int decode(Decoder d) {
                int code = 0;
                int first = 0;
                int index = 0;
                for (int len = 1; len <= 15; len++) {
                    code |= d.bits(1);
                    int c = count[len];
                    if (code - c < first) {
                        return symbol[index + (code - first)];
                    }
                    index += c;
                    first += c;
                    first <<= 1;
                    code <<= 1;
                }
                throw new IllegalStateException("invalid code");
            }
        }
    }
}
