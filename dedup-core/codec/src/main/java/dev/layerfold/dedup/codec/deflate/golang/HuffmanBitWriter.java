package dev.layerfold.dedup.codec.deflate.golang;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * Block encoding (stored, fixed and dynamic Huffman) and the bit sink, ported from Go's
 * {@code compress/flate/huffman_bit_writer.go} ({@code huffmanBitWriter}).
 *
 * <p>Bits gather in a 64-bit accumulator that spills 6 bytes at a time into a 248-byte buffer,
 * which goes to the sink once it holds 240 bytes, on {@link #flush} and before stored data: the
 * same points at which Go writes, so a caller comparing against an original stream sees each
 * byte as early as Go would have produced it. Go's sticky write error is a thrown
 * {@link IOException} here.
 */
final class HuffmanBitWriter {

    static final int MAX_NUM_LIT = 286;
    static final int OFFSET_CODE_COUNT = 30;
    static final int END_BLOCK_MARKER = 256;
    static final int MAX_STORE_BLOCK_SIZE = 65535;
    private static final int LENGTH_CODES_START = 257;
    private static final int CODEGEN_CODE_COUNT = 19;
    private static final int BAD_CODE = 255;
    private static final int BUFFER_FLUSH_SIZE = 240;
    private static final int BUFFER_SIZE = BUFFER_FLUSH_SIZE + 8;

    private static final int[] LENGTH_EXTRA_BITS = {
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    };

    static final int[] LENGTH_BASE = {
        0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 28, 32, 40, 48, 56,
        64, 80, 96, 112, 128, 160, 192, 224, 255,
    };

    private static final int[] OFFSET_EXTRA_BITS = {
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
    };

    static final int[] OFFSET_BASE = {
        0x000000, 0x000001, 0x000002, 0x000003, 0x000004, 0x000006, 0x000008, 0x00000c, 0x000010, 0x000018,
        0x000020, 0x000030, 0x000040, 0x000060, 0x000080, 0x0000c0, 0x000100, 0x000180, 0x000200, 0x000300,
        0x000400, 0x000600, 0x000800, 0x000c00, 0x001000, 0x001800, 0x002000, 0x003000, 0x004000, 0x006000,
    };

    /** The odd order in which the code length code lengths are written. */
    private static final int[] CODEGEN_ORDER = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

    /** The offset code of literal-only blocks: one unused offset symbol, so the tree is encodable. */
    private static final HuffmanEncoder HUFF_OFFSET = huffOffset();

    private OutputStream writer;
    private long bits;
    private int nbits;
    private final byte[] bytes = new byte[BUFFER_SIZE];
    private int nbytes;
    /** Bytes handed to {@link #writer} since the last reset: with the buffer and the bits, where the stream is. */
    private long written;
    private final int[] codegenFreq = new int[CODEGEN_CODE_COUNT];
    private final int[] literalFreq = new int[MAX_NUM_LIT];
    private final int[] offsetFreq = new int[OFFSET_CODE_COUNT];
    private final int[] codegen = new int[MAX_NUM_LIT + OFFSET_CODE_COUNT + 1];
    private final HuffmanEncoder literalEncoding = new HuffmanEncoder(MAX_NUM_LIT);
    private final HuffmanEncoder offsetEncoding = new HuffmanEncoder(OFFSET_CODE_COUNT);
    private final HuffmanEncoder codegenEncoding = new HuffmanEncoder(CODEGEN_CODE_COUNT);

    HuffmanBitWriter(OutputStream writer) {
        this.writer = writer;
    }

    private static HuffmanEncoder huffOffset() {
        int[] offsetFreq = new int[OFFSET_CODE_COUNT];
        offsetFreq[0] = 1;
        HuffmanEncoder encoder = new HuffmanEncoder(OFFSET_CODE_COUNT);
        encoder.generate(offsetFreq, 15);
        return encoder;
    }

    void reset(OutputStream writer) {
        this.writer = writer;
        bits = 0;
        nbits = 0;
        nbytes = 0;
        written = 0;
    }

    /**
     * Starts a stream {@code zeroBits} (0 to 7) bits into its first byte, which is written with
     * those low bits zero: a segment that continues another's partial last byte, to be merged with
     * it. Only on a fresh writer.
     */
    void startAtBit(int zeroBits) {
        if (zeroBits < 0 || zeroBits > 7 || written != 0 || nbytes != 0 || nbits != 0) {
            throw new IllegalArgumentException("a stream starts 0 to 7 bits into a fresh writer's first byte, not " + zeroBits);
        }
        nbits = zeroBits;
    }

    /** How many bits the stream holds so far, written or pending (a start bit included). */
    long bitPosition() {
        return (written + nbytes) * 8 + nbits;
    }

    /** Writes out every pending byte and bit, padding the last byte with zero bits. */
    void flush() throws IOException {
        int n = nbytes;
        while (nbits != 0) {
            bytes[n++] = (byte) bits;
            bits >>>= 8;
            nbits = nbits > 8 ? nbits - 8 : 0;
        }
        bits = 0;
        write(bytes, 0, n);
        nbytes = 0;
    }

    private void write(byte[] b, int offset, int length) throws IOException {
        if (length > 0) {
            writer.write(b, offset, length);
            written += length;
        }
    }

    private void writeBits(int b, int nb) throws IOException {
        bits |= (long) b << nbits;
        nbits += nb;
        if (nbits >= 48) {
            nbytes = spill(nbytes, bits);
            bits >>>= 48;
            nbits -= 48;
        }
    }

    private void writeCode(int code) throws IOException {
        writeBits(HuffmanEncoder.code(code), HuffmanEncoder.length(code));
    }

    /**
     * Appends the low 48 bits of {@code bits} to the byte buffer holding {@code n} bytes, writes the
     * buffer out once it is full, and returns how many bytes it holds then. The caller drops the
     * 48 bits from its accumulator.
     */
    private int spill(int n, long bits) throws IOException {
        byte[] b = bytes;
        b[n] = (byte) bits;
        b[n + 1] = (byte) (bits >>> 8);
        b[n + 2] = (byte) (bits >>> 16);
        b[n + 3] = (byte) (bits >>> 24);
        b[n + 4] = (byte) (bits >>> 32);
        b[n + 5] = (byte) (bits >>> 40);
        n += 6;
        if (n >= BUFFER_FLUSH_SIZE) {
            write(b, 0, n);
            n = 0;
        }
        return n;
    }

    /** Writes stored data after its header; the bit accumulator is byte-aligned by then. */
    private void writeBytes(byte[] input, int offset, int length) throws IOException {
        int n = nbytes;
        if ((nbits & 7) != 0) {
            throw new IllegalStateException("writeBytes with unfinished bits");
        }
        while (nbits != 0) {
            bytes[n++] = (byte) bits;
            bits >>>= 8;
            nbits -= 8;
        }
        write(bytes, 0, n);
        nbytes = 0;
        write(input, offset, length);
    }

    /**
     * RFC 1951 3.2.7: run-length encodes the concatenated literal and offset code lengths into
     * {@link #codegen} (terminated by {@code BAD_CODE}) and counts each code in
     * {@link #codegenFreq}.
     */
    private void generateCodegen(int numLiterals, int numOffsets, HuffmanEncoder litEnc, HuffmanEncoder offEnc) {
        Arrays.fill(codegenFreq, 0);
        int[] codegen = this.codegen;
        for (int i = 0; i < numLiterals; i++) {
            codegen[i] = HuffmanEncoder.length(litEnc.codes[i]);
        }
        for (int i = 0; i < numOffsets; i++) {
            codegen[numLiterals + i] = HuffmanEncoder.length(offEnc.codes[i]);
        }
        codegen[numLiterals + numOffsets] = BAD_CODE;

        int size = codegen[0];
        int count = 1;
        int outIndex = 0;
        for (int inIndex = 1; size != BAD_CODE; inIndex++) {
            int nextSize = codegen[inIndex];
            if (nextSize == size) {
                count++;
                continue;
            }
            if (size != 0) {
                codegen[outIndex++] = size;
                codegenFreq[size]++;
                count--;
                while (count >= 3) {
                    int n = Math.min(6, count);
                    codegen[outIndex++] = 16;
                    codegen[outIndex++] = n - 3;
                    codegenFreq[16]++;
                    count -= n;
                }
            } else {
                while (count >= 11) {
                    int n = Math.min(138, count);
                    codegen[outIndex++] = 18;
                    codegen[outIndex++] = n - 11;
                    codegenFreq[18]++;
                    count -= n;
                }
                if (count >= 3) {
                    codegen[outIndex++] = 17;
                    codegen[outIndex++] = count - 3;
                    codegenFreq[17]++;
                    count = 0;
                }
            }
            count--;
            for (; count >= 0; count--) {
                codegen[outIndex++] = size;
                codegenFreq[size]++;
            }
            size = nextSize;
            count = 1;
        }
        codegen[outIndex] = BAD_CODE;
    }

    /** The size in bits of a dynamic block; the number of code length codes in the low 5 bits. */
    private long dynamicSize(HuffmanEncoder litEnc, HuffmanEncoder offEnc, int extraBits) {
        int numCodegens = codegenFreq.length;
        while (numCodegens > 4 && codegenFreq[CODEGEN_ORDER[numCodegens - 1]] == 0) {
            numCodegens--;
        }
        int header = 3 + 5 + 5 + 4 + 3 * numCodegens
                + codegenEncoding.bitLength(codegenFreq)
                + codegenFreq[16] * 2
                + codegenFreq[17] * 3
                + codegenFreq[18] * 7;
        long size = header + (long) litEnc.bitLength(literalFreq) + offEnc.bitLength(offsetFreq) + extraBits;
        return size << 5 | numCodegens;
    }

    private int fixedSize(int extraBits) {
        return 3 + HuffmanEncoder.FIXED_LITERAL_ENCODING.bitLength(literalFreq)
                + HuffmanEncoder.FIXED_OFFSET_ENCODING.bitLength(offsetFreq) + extraBits;
    }

    /** Stored size in bits including the header, or -1 when the input is absent or too long. */
    private static int storedSize(int inputLength) {
        return inputLength >= 0 && inputLength <= MAX_STORE_BLOCK_SIZE ? (inputLength + 5) * 8 : -1;
    }

    private void writeDynamicHeader(int numLiterals, int numOffsets, int numCodegens, boolean eof)
            throws IOException {
        writeBits(eof ? 5 : 4, 3);
        writeBits(numLiterals - 257, 5);
        writeBits(numOffsets - 1, 5);
        writeBits(numCodegens - 4, 4);
        for (int i = 0; i < numCodegens; i++) {
            writeBits(HuffmanEncoder.length(codegenEncoding.codes[CODEGEN_ORDER[i]]), 3);
        }
        int i = 0;
        while (true) {
            int codeWord = codegen[i++];
            if (codeWord == BAD_CODE) {
                break;
            }
            writeCode(codegenEncoding.codes[codeWord]);
            switch (codeWord) {
                case 16 -> writeBits(codegen[i++], 2);
                case 17 -> writeBits(codegen[i++], 3);
                case 18 -> writeBits(codegen[i++], 7);
                default -> { }
            }
        }
    }

    void writeStoredHeader(int length, boolean eof) throws IOException {
        writeBits(eof ? 1 : 0, 3);
        flush();
        writeBits(length, 16);
        writeBits(~length & 0xFFFF, 16);
    }

    private void writeFixedHeader(boolean eof) throws IOException {
        writeBits(eof ? 3 : 2, 3);
    }

    /** Writes {@code input} as one stored block (at most 65535 bytes). */
    void writeStoredBlock(byte[] input, int offset, int length) throws IOException {
        writeStoredHeader(length, false);
        writeBytes(input, offset, length);
    }

    /**
     * Go's {@code writeBlock}: writes {@code tokens[0..count)} with the smallest of fixed Huffman,
     * dynamic Huffman and (when {@code inputLength >= 0}) stored encoding of the input they came
     * from. {@code tokens} needs room for one more entry, the end-of-block marker.
     */
    void writeBlock(int[] tokens, int count, boolean eof, byte[] input, int inputOffset, int inputLength)
            throws IOException {
        tokens[count++] = END_BLOCK_MARKER;
        int counts = indexTokens(tokens, count);
        int numLiterals = counts >>> 16;
        int numOffsets = counts & 0xFFFF;

        int extraBits = 0;
        int storedSize = storedSize(inputLength);
        if (storedSize >= 0) {
            // The extra bits cost the same in fixed and dynamic encodings: only needed against stored.
            for (int lengthCode = LENGTH_CODES_START + 8; lengthCode < numLiterals; lengthCode++) {
                extraBits += literalFreq[lengthCode] * LENGTH_EXTRA_BITS[lengthCode - LENGTH_CODES_START];
            }
            for (int offsetCode = 4; offsetCode < numOffsets; offsetCode++) {
                extraBits += offsetFreq[offsetCode] * OFFSET_EXTRA_BITS[offsetCode];
            }
        }
        HuffmanEncoder literals = HuffmanEncoder.FIXED_LITERAL_ENCODING;
        HuffmanEncoder offsets = HuffmanEncoder.FIXED_OFFSET_ENCODING;
        long size = fixedSize(extraBits);

        generateCodegen(numLiterals, numOffsets, literalEncoding, offsetEncoding);
        codegenEncoding.generate(codegenFreq, 7);
        long dynamic = dynamicSize(literalEncoding, offsetEncoding, extraBits);
        int numCodegens = (int) (dynamic & 31);
        if (dynamic >> 5 < size) {
            size = dynamic >> 5;
            literals = literalEncoding;
            offsets = offsetEncoding;
        }
        if (storedSize >= 0 && storedSize < size) {
            writeStoredHeader(inputLength, eof);
            writeBytes(input, inputOffset, inputLength);
            return;
        }
        if (literals == HuffmanEncoder.FIXED_LITERAL_ENCODING) {
            writeFixedHeader(eof);
        } else {
            writeDynamicHeader(numLiterals, numOffsets, numCodegens, eof);
        }
        writeTokens(tokens, count, literals.codes, offsets.codes);
    }

    /**
     * Go's {@code writeBlockDynamic}: a dynamic Huffman block, or stored when Huffman saves less
     * than 1/16th. {@code tokens} needs room for the end-of-block marker.
     */
    void writeBlockDynamic(int[] tokens, int count, boolean eof, byte[] input, int inputOffset, int inputLength)
            throws IOException {
        tokens[count++] = END_BLOCK_MARKER;
        int counts = indexTokens(tokens, count);
        int numLiterals = counts >>> 16;
        int numOffsets = counts & 0xFFFF;

        generateCodegen(numLiterals, numOffsets, literalEncoding, offsetEncoding);
        codegenEncoding.generate(codegenFreq, 7);
        long dynamic = dynamicSize(literalEncoding, offsetEncoding, 0);
        long size = dynamic >> 5;
        int storedSize = storedSize(inputLength);
        if (storedSize >= 0 && storedSize < size + (size >> 4)) {
            writeStoredHeader(inputLength, eof);
            writeBytes(input, inputOffset, inputLength);
            return;
        }
        writeDynamicHeader(numLiterals, numOffsets, (int) (dynamic & 31), eof);
        writeTokens(tokens, count, literalEncoding.codes, offsetEncoding.codes);
    }

    /**
     * Counts symbol frequencies and builds the block's codes; returns the number of literal/length
     * symbols in use (high 16 bits) and of offset symbols (low 16 bits).
     */
    private int indexTokens(int[] tokens, int count) {
        Arrays.fill(literalFreq, 0);
        Arrays.fill(offsetFreq, 0);
        int[] literalFreq = this.literalFreq;
        int[] offsetFreq = this.offsetFreq;
        for (int i = 0; i < count; i++) {
            int t = tokens[i];
            if (t < Tokens.MATCH_TYPE) {
                literalFreq[t]++;
                continue;
            }
            literalFreq[LENGTH_CODES_START + Tokens.lengthCode(Tokens.length(t))]++;
            offsetFreq[Tokens.offsetCode(Tokens.offset(t))]++;
        }
        int numLiterals = literalFreq.length;
        while (literalFreq[numLiterals - 1] == 0) {
            numLiterals--;
        }
        int numOffsets = offsetFreq.length;
        while (numOffsets > 0 && offsetFreq[numOffsets - 1] == 0) {
            numOffsets--;
        }
        if (numOffsets == 0) {
            // No match at all: count one offset anyway so a dynamic offset tree can be encoded.
            offsetFreq[0] = 1;
            numOffsets = 1;
        }
        literalEncoding.generate(literalFreq, 15);
        offsetEncoding.generate(offsetFreq, 15);
        return numLiterals << 16 | numOffsets;
    }

    /**
     * Writes the tokens with the given codes. The bit accumulator lives in locals meanwhile; as in
     * Go, it spills after every code and every extra-bits field, which keeps it under 64 bits.
     */
    private void writeTokens(int[] tokens, int count, int[] leCodes, int[] oeCodes) throws IOException {
        long bits = this.bits;
        int nbits = this.nbits;
        int n = nbytes;
        for (int i = 0; i < count; i++) {
            int t = tokens[i];
            if (t < Tokens.MATCH_TYPE) {
                int code = leCodes[t];
                bits |= (long) (code & 0xFFFF) << nbits;
                nbits += code >>> 16;
                if (nbits >= 48) {
                    n = spill(n, bits);
                    bits >>>= 48;
                    nbits -= 48;
                }
                continue;
            }
            int length = Tokens.length(t);
            int lengthCode = Tokens.lengthCode(length);
            int code = leCodes[lengthCode + LENGTH_CODES_START];
            bits |= (long) (code & 0xFFFF) << nbits;
            nbits += code >>> 16;
            if (nbits >= 48) {
                n = spill(n, bits);
                bits >>>= 48;
                nbits -= 48;
            }
            int extraLengthBits = LENGTH_EXTRA_BITS[lengthCode];
            if (extraLengthBits > 0) {
                bits |= (long) (length - LENGTH_BASE[lengthCode]) << nbits;
                nbits += extraLengthBits;
                if (nbits >= 48) {
                    n = spill(n, bits);
                    bits >>>= 48;
                    nbits -= 48;
                }
            }
            int offset = Tokens.offset(t);
            int offsetCode = Tokens.offsetCode(offset);
            code = oeCodes[offsetCode];
            bits |= (long) (code & 0xFFFF) << nbits;
            nbits += code >>> 16;
            if (nbits >= 48) {
                n = spill(n, bits);
                bits >>>= 48;
                nbits -= 48;
            }
            int extraOffsetBits = OFFSET_EXTRA_BITS[offsetCode];
            if (extraOffsetBits > 0) {
                bits |= (long) (offset - OFFSET_BASE[offsetCode]) << nbits;
                nbits += extraOffsetBits;
                if (nbits >= 48) {
                    n = spill(n, bits);
                    bits >>>= 48;
                    nbits -= 48;
                }
            }
        }
        this.bits = bits;
        this.nbits = nbits;
        nbytes = n;
    }

    /**
     * Go's {@code writeBlockHuff}: the input as Huffman-coded literals only, or stored when that
     * saves less than 1/16th.
     */
    void writeBlockHuff(boolean eof, byte[] input, int offset, int length) throws IOException {
        Arrays.fill(literalFreq, 0);
        for (int i = offset, end = offset + length; i < end; i++) {
            literalFreq[input[i] & 0xFF]++;
        }
        literalFreq[END_BLOCK_MARKER] = 1;
        int numLiterals = END_BLOCK_MARKER + 1;
        offsetFreq[0] = 1;
        int numOffsets = 1;
        literalEncoding.generate(literalFreq, 15);

        generateCodegen(numLiterals, numOffsets, literalEncoding, HUFF_OFFSET);
        codegenEncoding.generate(codegenFreq, 7);
        long dynamic = dynamicSize(literalEncoding, HUFF_OFFSET, 0);
        long size = dynamic >> 5;
        int storedSize = storedSize(length);
        if (storedSize >= 0 && storedSize < size + (size >> 4)) {
            writeStoredHeader(length, eof);
            writeBytes(input, offset, length);
            return;
        }
        writeDynamicHeader(numLiterals, numOffsets, (int) (dynamic & 31), eof);
        int[] encoding = literalEncoding.codes;
        long bits = this.bits;
        int nbits = this.nbits;
        int n = nbytes;
        for (int i = offset, end = offset + length; i < end; i++) {
            int c = encoding[input[i] & 0xFF];
            bits |= (long) (c & 0xFFFF) << nbits;
            nbits += c >>> 16;
            if (nbits >= 48) {
                n = spill(n, bits);
                bits >>>= 48;
                nbits -= 48;
            }
        }
        this.bits = bits;
        this.nbits = nbits;
        nbytes = n;
        writeCode(encoding[END_BLOCK_MARKER]);
    }
}
