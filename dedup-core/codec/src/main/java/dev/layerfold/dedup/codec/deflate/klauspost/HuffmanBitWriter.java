package dev.layerfold.dedup.codec.deflate.klauspost;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * Block encoding and the bit sink: Go 1.27's {@code huffmanBitWriter} in
 * {@code compress/flate/huffman_bit_writer.go}. Unlike Go 1.26's, it may keep a block's dynamic
 * table open for the next block ({@code prevHeader}) when reusing it is estimated cheaper than a
 * new table, and chooses stored, fixed or dynamic blocks by its own estimates. klauspost/compress
 * up to 1.18.0 heads such an open block with every code ({@link FlateRelease#openBlockListsEveryCode}).
 *
 * <p>Bits spill 6 bytes at a time into a 264-byte buffer written once it holds 246 bytes, as Go
 * does. A failed write is thrown at once (Go's sticky error).
 */
final class HuffmanBitWriter {

    static final int MAX_STORE_BLOCK_SIZE = 65535;
    private static final int LENGTH_CODES_START = 257;
    private static final int CODEGEN_CODE_COUNT = 19;
    private static final int BAD_CODE = 255;
    private static final int MAX_PREDEFINED_TOKENS = 250;
    private static final int BUFFER_FLUSH_SIZE = 246;
    private static final int LENGTH_EXTRA_BITS_MIN_CODE = 8;
    private static final int OFFSET_EXTRA_BITS_MIN_CODE = 4;
    private static final int GUESS_HEADER_SIZE_BITS = 70 * 8;
    private static final int[] CODEGEN_ORDER = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

    private static final HuffmanEncoder FIXED_LITERAL = HuffmanEncoder.fixedLiteral();
    private static final HuffmanEncoder FIXED_OFFSET = HuffmanEncoder.fixedOffset();
    private static final HuffmanEncoder HUFF_OFFSET = huffOffset();

    private OutputStream writer;
    private long bits;
    private int nbits;
    private int nbytes;
    private final byte[] bytes = new byte[256 + 8];
    private boolean wroteHuffman;
    private HuffmanEncoder literalEncoding = new HuffmanEncoder(Tokens.LITERAL_COUNT);
    private HuffmanEncoder tmpLitEncoding = new HuffmanEncoder(Tokens.LITERAL_COUNT);
    private final HuffmanEncoder offsetEncoding = new HuffmanEncoder(Tokens.OFFSET_CODE_COUNT);
    private final HuffmanEncoder codegenEncoding = new HuffmanEncoder(CODEGEN_CODE_COUNT);
    /** Non-zero: the previous dynamic block's header size; its table is open and owes an EOB. */
    private int prevHeader;
    /** How many tables were opened (headed and left open for the next block): a restart point counts blocks since the last. */
    private int tablesOpened;
    private final int logNewTablePenalty;
    private final boolean openBlockListsEveryCode;
    private final boolean openBlockFillsEveryCode;
    private final int[] literalFreq = new int[LENGTH_CODES_START + 32];
    private final int[] offsetFreq = new int[32];
    private final int[] codegenFreq = new int[CODEGEN_CODE_COUNT];
    private final int[] codegen = new int[Tokens.LITERAL_COUNT + Tokens.OFFSET_CODE_COUNT + 1];

    HuffmanBitWriter(OutputStream writer, int logNewTablePenalty, FlateRelease release) {
        this.writer = writer;
        this.logNewTablePenalty = logNewTablePenalty;
        this.openBlockListsEveryCode = release.openBlockListsEveryCode;
        this.openBlockFillsEveryCode = release.openBlockFillsEveryCode;
    }

    private static HuffmanEncoder huffOffset() {
        int[] freq = new int[Tokens.OFFSET_CODE_COUNT];
        freq[0] = 1;
        HuffmanEncoder h = new HuffmanEncoder(Tokens.OFFSET_CODE_COUNT);
        h.generate(freq, Tokens.OFFSET_CODE_COUNT, 15);
        return h;
    }

    void reset(OutputStream writer) {
        this.writer = writer;
        bits = 0;
        nbits = 0;
        nbytes = 0;
        prevHeader = 0;
        wroteHuffman = false;
    }

    private boolean canReuse(Tokens t) {
        for (int i = 0; i < Tokens.OFFSET_CODE_COUNT; i++) {
            if (t.offHist[i] != 0 && offsetEncoding.codes[i] == 0) {
                return false;
            }
        }
        for (int i = 0; i < Tokens.LITERAL_COUNT - 256; i++) {
            if (t.extraHist[i] != 0 && literalEncoding.codes[256 + i] == 0) {
                return false;
            }
        }
        for (int i = 0; i < 256; i++) {
            if (t.litHist[i] != 0 && literalEncoding.codes[i] == 0) {
                return false;
            }
        }
        return true;
    }

    /** Writes the owed EOB if any, pads to a byte and sends everything buffered to the sink. */
    void flush() throws IOException {
        if (prevHeader > 0) {
            writeCode(literalEncoding.codes[Tokens.END_BLOCK_MARKER]);
            prevHeader = 0;
        }
        writePending();
    }

    /**
     * Sends everything buffered to the sink, the last partial byte padded with zero bits, and owes
     * no EOB: where a restart segment ends, its table staying open for the next segment.
     */
    void writePending() throws IOException {
        int n = nbytes;
        while (nbits != 0) {
            bytes[n++] = (byte) bits;
            bits >>>= 8;
            nbits = nbits > 8 ? nbits - 8 : 0;
        }
        bits = 0;
        if (n > 0) {
            writer.write(bytes, 0, n);
        }
        nbytes = 0;
    }

    /**
     * Goes on writing to {@code writer} as if {@code zeroBits} bits (0 to 7) of its first byte were
     * written, keeping the open table: a restart segment starting inside a byte, its table state
     * rebuilt by replaying the blocks before it into another sink.
     */
    void continueAt(OutputStream writer, int zeroBits) {
        if (zeroBits < 0 || zeroBits > 7) {
            throw new IllegalArgumentException("a segment starts 0 to 7 bits into its first byte, not " + zeroBits);
        }
        this.writer = writer;
        bits = 0;
        nbits = zeroBits;
        nbytes = 0;
    }

    /** Bits buffered and not yet sent to the sink. */
    long pendingBits() {
        return nbytes * 8L + nbits;
    }

    /** Whether a table is open (owing its EOB) for the next block. */
    boolean tableOpen() {
        return prevHeader > 0;
    }

    int tablesOpened() {
        return tablesOpened;
    }

    /**
     * Whether the next block is written as {@code other} would write it, all else equal: the same
     * table open (or none), or one from literals alone in both.
     */
    boolean sameOpenTable(HuffmanBitWriter other) {
        if (prevHeader != other.prevHeader) {
            return false;
        }
        return prevHeader == 0 || wroteHuffman == other.wroteHuffman
                && Arrays.equals(literalEncoding.codes, other.literalEncoding.codes)
                && Arrays.equals(offsetEncoding.codes, other.offsetEncoding.codes);
    }

    private void writeBits(int value, int nb) throws IOException {
        bits |= (value & 0xffffffffL) << (nbits & 63);
        nbits += nb;
        if (nbits >= 48) {
            flushBits();
        }
    }

    void writeBytes(byte[] data, int offset, int length) throws IOException {
        int n = nbytes;
        if ((nbits & 7) != 0) {
            throw new IllegalStateException("writeBytes with unfinished bits");
        }
        while (nbits != 0) {
            bytes[n++] = (byte) bits;
            bits >>>= 8;
            nbits -= 8;
        }
        if (n != 0) {
            writer.write(bytes, 0, n);
        }
        nbytes = 0;
        writer.write(data, offset, length);
    }

    private void generateCodegen(int numLiterals, int numOffsets, HuffmanEncoder litEnc, HuffmanEncoder offEnc) {
        Arrays.fill(codegenFreq, 0);
        for (int i = 0; i < numLiterals; i++) {
            codegen[i] = litEnc.codes[i] & 0xff;
        }
        for (int i = 0; i < numOffsets; i++) {
            codegen[numLiterals + i] = offEnc.codes[i] & 0xff;
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

    private int codegens() {
        int numCodegens = CODEGEN_CODE_COUNT;
        while (numCodegens > 4 && codegenFreq[CODEGEN_ORDER[numCodegens - 1]] == 0) {
            numCodegens--;
        }
        return numCodegens;
    }

    private int headerSize() {
        return 3 + 5 + 5 + 4 + 3 * codegens()
                + codegenEncoding.bitLength(codegenFreq, CODEGEN_CODE_COUNT)
                + codegenFreq[16] * 2 + codegenFreq[17] * 3 + codegenFreq[18] * 7;
    }

    private int dynamicReuseSize() {
        return literalEncoding.bitLength(literalFreq, Tokens.LITERAL_COUNT)
                + offsetEncoding.bitLength(offsetFreq, Tokens.OFFSET_CODE_COUNT);
    }

    private int dynamicSize(int extraBits) {
        return headerSize() + dynamicReuseSize() + extraBits;
    }

    private int extraBitSize() {
        int total = 0;
        for (int i = 0; i < Tokens.LITERAL_COUNT - 257; i++) {
            total += literalFreq[257 + i] * Tokens.LENGTH_EXTRA_BITS[i & 31];
        }
        for (int i = 0; i < Tokens.OFFSET_CODE_COUNT; i++) {
            total += offsetFreq[i] * Tokens.OFFSET_EXTRA_BITS[i & 31];
        }
        return total;
    }

    private int fixedSize(int extraBits) {
        return 3 + FIXED_LITERAL.bitLength(literalFreq, Tokens.LITERAL_COUNT)
                + FIXED_OFFSET.bitLength(offsetFreq, Tokens.OFFSET_CODE_COUNT) + extraBits;
    }

    /** Go's {@code storedSize}: bits of a stored block of the input, or -1 if not storable. */
    private static int storedSize(byte[] input, int length) {
        if (input == null || length > MAX_STORE_BLOCK_SIZE) {
            return -1;
        }
        return (length + 5) * 8;
    }

    private void writeCode(int code) throws IOException {
        bits |= (long) (code >>> 8) << (nbits & 63);
        nbits += code & 0xff;
        if (nbits >= 48) {
            flushBits();
        }
    }

    private void flushBits() throws IOException {
        long b = bits;
        bits >>>= 48;
        nbits -= 48;
        storeLE64(bytes, nbytes, b);
        nbytes += 6;
        if (nbytes >= BUFFER_FLUSH_SIZE) {
            writer.write(bytes, 0, nbytes);
            nbytes = 0;
        }
    }

    private static void storeLE64(byte[] b, int i, long v) {
        for (int k = 0; k < 8; k++) {
            b[i + k] = (byte) (v >>> (8 * k));
        }
    }

    private void writeDynamicHeader(int numLiterals, int numOffsets, int numCodegens, boolean eof) throws IOException {
        writeBits(eof ? 5 : 4, 3);
        writeBits(numLiterals - 257, 5);
        writeBits(numOffsets - 1, 5);
        writeBits(numCodegens - 4, 4);
        for (int i = 0; i < numCodegens; i++) {
            writeBits(codegenEncoding.codes[CODEGEN_ORDER[i]] & 0xff, 3);
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
                default -> {
                }
            }
        }
    }

    /** A stored block's header; an empty final one is written as a fixed block instead (10 bits). */
    void writeStoredHeader(int length, boolean eof) throws IOException {
        if (prevHeader > 0) {
            writeCode(literalEncoding.codes[Tokens.END_BLOCK_MARKER]);
            prevHeader = 0;
        }
        if (length == 0 && eof) {
            writeFixedHeader(true);
            writeBits(0, 7);
            flush();
            return;
        }
        writeBits(eof ? 1 : 0, 3);
        flush();
        writeBits(length, 16);
        writeBits(~length & 0xffff, 16);
    }

    private void writeFixedHeader(boolean eof) throws IOException {
        if (prevHeader > 0) {
            writeCode(literalEncoding.codes[Tokens.END_BLOCK_MARKER]);
            prevHeader = 0;
        }
        writeBits(eof ? 3 : 2, 3);
    }

    private void writeStored(byte[] input, int offset, int length, boolean eof) throws IOException {
        writeStoredHeader(length, eof);
        writeBytes(input, offset, length);
    }

    /** Go's {@code writeBlockDynamic}; {@code input} (may be null) is the block's bytes, for storing. */
    void writeBlockDynamic(Tokens tokens, boolean eof, byte[] input, int offset, int length, boolean sync) throws IOException {
        sync = sync || eof;
        if (sync) {
            tokens.addEob();
        } else if (!openBlockListsEveryCode) {
            tokens.extraHist[0] = 1;
        }
        if ((wroteHuffman || eof) && prevHeader > 0) {
            writeCode(literalEncoding.codes[Tokens.END_BLOCK_MARKER]);
            prevHeader = 0;
            wroteHuffman = false;
        }
        if (openBlockFillsEveryCode) {
            writeFilledBlockDynamic(tokens, eof, input, offset, length, sync);
            return;
        }
        if (prevHeader > 0 && !canReuse(tokens)) {
            writeCode(literalEncoding.codes[Tokens.END_BLOCK_MARKER]);
            prevHeader = 0;
        }
        int numLiterals = indexTokens(tokens, openBlockListsEveryCode && !sync);
        int numOffsets = indexedOffsets;
        int extraBits = 0;
        int ssize = storedSize(input, length);
        boolean storable = ssize >= 0;
        if (storable || prevHeader > 0) {
            extraBits = extraBitSize();
        }
        int size;
        if (prevHeader > 0) {
            int newSize = prevHeader + tokens.estimatedBits();
            newSize += (literalEncoding.codes[Tokens.END_BLOCK_MARKER] & 0xff) + (newSize >> logNewTablePenalty);
            int reuseSize = dynamicReuseSize() + extraBits;
            if (newSize < reuseSize) {
                writeCode(literalEncoding.codes[Tokens.END_BLOCK_MARKER]);
                size = newSize;
                prevHeader = 0;
            } else {
                size = reuseSize;
            }
            if (tokens.n < MAX_PREDEFINED_TOKENS) {
                int preSize = fixedSize(extraBits) + 7;
                if (preSize < size) {
                    if (storable && ssize <= size) {
                        writeStored(input, offset, length, eof);
                        return;
                    }
                    writeFixedHeader(eof);
                    if (!sync) {
                        tokens.addEob();
                    }
                    writeTokens(tokens, FIXED_LITERAL.codes, FIXED_OFFSET.codes);
                    return;
                }
            }
            if (storable && ssize <= size) {
                writeStored(input, offset, length, eof);
                return;
            }
        }
        if (prevHeader == 0) {
            literalFreq[Tokens.END_BLOCK_MARKER] = 1;
            generate();
            generateCodegen(numLiterals, numOffsets, literalEncoding, offsetEncoding);
            codegenEncoding.generate(codegenFreq, CODEGEN_CODE_COUNT, 7);
            int numCodegens = codegens();
            size = dynamicSize(extraBits);
            if (tokens.n < MAX_PREDEFINED_TOKENS) {
                int preSize = fixedSize(extraBits);
                if (preSize <= size) {
                    if (storable && ssize <= preSize) {
                        writeStored(input, offset, length, eof);
                        return;
                    }
                    writeFixedHeader(eof);
                    if (!sync) {
                        tokens.addEob();
                    }
                    writeTokens(tokens, FIXED_LITERAL.codes, FIXED_OFFSET.codes);
                    return;
                }
            }
            if (storable && ssize <= size) {
                writeStored(input, offset, length, eof);
                return;
            }
            openTable(numLiterals, numOffsets, numCodegens, eof, sync);
        }
        writeUnderTable(tokens, sync);
    }

    /**
     * The rest of klauspost/compress 1.13.6's {@code writeBlockDynamic} ({@link FlateRelease#openBlockFillsEveryCode}):
     * an open table takes any block, so only its estimate against a new table's and a stored block's
     * decides; its literal count ({@code nLits}) leaves the end-of-block code out and the filled codes in.
     */
    private void writeFilledBlockDynamic(Tokens tokens, boolean eof, byte[] input, int offset, int length, boolean sync)
            throws IOException {
        int literals = sync ? tokens.n - 1 : tokens.n + tokens.fillEveryCode();
        int numLiterals = indexTokens(tokens, !sync);
        int numOffsets = indexedOffsets;
        int ssize = storedSize(input, length);
        if (prevHeader > 0) {
            int newSize = prevHeader + tokens.estimatedBits(literals);
            newSize += newSize >> logNewTablePenalty;
            int reuseSize = dynamicReuseSize() + extraBitSize();
            int size;
            if (newSize < reuseSize) {
                writeCode(literalEncoding.codes[Tokens.END_BLOCK_MARKER]);
                size = newSize;
                prevHeader = 0;
            } else {
                size = reuseSize;
            }
            if (ssize >= 0 && ssize < size + (size >> 4)) {
                writeStored(input, offset, length, eof);
                return;
            }
        }
        if (prevHeader == 0) {
            generate();
            generateCodegen(numLiterals, numOffsets, literalEncoding, offsetEncoding);
            codegenEncoding.generate(codegenFreq, CODEGEN_CODE_COUNT, 7);
            int numCodegens = codegens();
            int size = dynamicSize(extraBitSize());
            if (ssize >= 0 && ssize < size + (size >> 4)) {
                writeStored(input, offset, length, eof);
                return;
            }
            openTable(numLiterals, numOffsets, numCodegens, eof, sync);
        }
        writeUnderTable(tokens, sync);
    }

    /** Writes a new table's header; a block not sync-flushed leaves it open for the blocks after it. */
    private void openTable(int numLiterals, int numOffsets, int numCodegens, boolean eof, boolean sync) throws IOException {
        writeDynamicHeader(numLiterals, numOffsets, numCodegens, eof);
        if (!sync) {
            prevHeader = headerSize();
            tablesOpened++;
        }
        wroteHuffman = false;
    }

    /** Writes the block's tokens under the table in use; a sync flush closes that table. */
    private void writeUnderTable(Tokens tokens, boolean sync) throws IOException {
        if (sync) {
            prevHeader = 0;
        }
        writeTokens(tokens, literalEncoding.codes, offsetEncoding.codes);
    }

    /** The offset code count {@link #indexTokens} found. */
    private int indexedOffsets;

    /**
     * Copies the histograms; returns the literal/length count and sets {@link #indexedOffsets}:
     * all of them with {@code everyCode}, else up to the last one used.
     */
    private int indexTokens(Tokens t, boolean everyCode) {
        System.arraycopy(t.litHist, 0, literalFreq, 0, 256);
        System.arraycopy(t.extraHist, 0, literalFreq, 256, 32);
        System.arraycopy(t.offHist, 0, offsetFreq, 0, 32);
        if (t.n == 0) {
            indexedOffsets = 0;
            return 0;
        }
        if (everyCode) {
            indexedOffsets = Tokens.OFFSET_CODE_COUNT;
            return Tokens.LITERAL_COUNT;
        }
        int numLiterals = literalFreq.length;
        while (literalFreq[numLiterals - 1] == 0) {
            numLiterals--;
        }
        int offsets = offsetFreq.length;
        while (offsets > 0 && offsetFreq[offsets - 1] == 0) {
            offsets--;
        }
        if (offsets == 0) {
            offsetFreq[0] = 1;
            offsets = 1;
        }
        indexedOffsets = offsets;
        return numLiterals;
    }

    private void generate() {
        literalEncoding.generate(literalFreq, Tokens.LITERAL_COUNT, 15);
        offsetEncoding.generate(offsetFreq, Tokens.OFFSET_CODE_COUNT, 15);
    }

    private void writeTokens(Tokens t, int[] lenCodes, int[] offCodes) throws IOException {
        int count = t.n;
        if (count == 0) {
            return;
        }
        int[] tokens = t.tokens;
        boolean deferEob = false;
        if (tokens[count - 1] == Tokens.END_BLOCK_MARKER) {
            count--;
            deferEob = true;
        }
        long b = bits;
        int nb = nbits;
        for (int k = 0; k < count; k++) {
            int token = tokens[k];
            if (token < 256) {
                int c = lenCodes[token];
                b |= (long) (c >>> 8) << (nb & 63);
                nb += c & 0xff;
                if (nb >= 48) {
                    bits = b;
                    nbits = nb;
                    flushBits();
                    b = bits;
                    nb = nbits;
                }
                continue;
            }
            int length = (token >>> Tokens.LENGTH_SHIFT) & 0xff;
            int lenCode = Tokens.LENGTH_CODES[length] & 31;
            int c = lenCodes[LENGTH_CODES_START + lenCode];
            b |= (long) (c >>> 8) << (nb & 63);
            nb += c & 0xff;
            if (nb >= 48) {
                bits = b;
                nbits = nb;
                flushBits();
                b = bits;
                nb = nbits;
            }
            if (lenCode >= LENGTH_EXTRA_BITS_MIN_CODE) {
                int extraLength = (length - Tokens.LENGTH_BASE[lenCode]) & 0xff;
                b |= (long) extraLength << (nb & 63);
                nb += Tokens.LENGTH_EXTRA_BITS[lenCode];
                if (nb >= 48) {
                    bits = b;
                    nbits = nb;
                    flushBits();
                    b = bits;
                    nb = nbits;
                }
            }
            int off = token & ((1 << Tokens.LENGTH_SHIFT) - 1);
            int offCode = (off >>> 16) & 31;
            c = offCodes[offCode];
            b |= (long) (c >>> 8) << (nb & 63);
            nb += c & 0xff;
            if (nb >= 48) {
                bits = b;
                nbits = nb;
                flushBits();
                b = bits;
                nb = nbits;
            }
            if (offCode >= OFFSET_EXTRA_BITS_MIN_CODE) {
                int extra = (off - Tokens.OFFSET_BASE[offCode]) & Tokens.MATCH_OFFSET_ONLY_MASK;
                b |= (long) extra << (nb & 63);
                nb += Tokens.OFFSET_EXTRA_BITS[offCode];
                if (nb >= 48) {
                    bits = b;
                    nbits = nb;
                    flushBits();
                    b = bits;
                    nb = nbits;
                }
            }
        }
        bits = b;
        nbits = nb;
        if (deferEob) {
            writeCode(lenCodes[Tokens.END_BLOCK_MARKER]);
        }
    }

    /** Go's {@code writeBlockHuff}: literals only, or stored if Huffman coding gains too little. */
    void writeBlockHuff(boolean eof, byte[] input, int offset, int length, boolean sync) throws IOException {
        Arrays.fill(literalFreq, 0);
        if (!wroteHuffman) {
            Arrays.fill(offsetFreq, 0);
        }
        final int numLiterals = Tokens.END_BLOCK_MARKER + 1;
        final int numOffsetsHuff = 1;
        for (int i = offset; i < offset + length; i++) {
            literalFreq[input[i] & 0xff]++;
        }
        int ssize = storedSize(input, length);
        boolean storable = ssize >= 0;
        if (storable && length > 1024) {
            double abs = 0;
            double avg = (double) length / 256;
            double max = length * 2;
            for (int i = 0; i < 256; i++) {
                double diff = literalFreq[i] - avg;
                abs += diff * diff;
                if (abs >= max) {
                    break;
                }
            }
            if (abs < max) {
                writeStored(input, offset, length, eof);
                return;
            }
        }
        literalFreq[Tokens.END_BLOCK_MARKER] = 1;
        tmpLitEncoding.generate(literalFreq, numLiterals, 15);
        int estBits = tmpLitEncoding.canEncodeLen(literalFreq, numLiterals);
        if (estBits < Integer.MAX_VALUE) {
            estBits += prevHeader;
            if (prevHeader == 0) {
                estBits += GUESS_HEADER_SIZE_BITS;
            }
            estBits += estBits >> logNewTablePenalty;
        }
        if (storable && ssize <= estBits) {
            writeStored(input, offset, length, eof);
            return;
        }
        if (prevHeader > 0) {
            int reuseSize = literalEncoding.canEncodeLen(literalFreq, 256);
            if (estBits < reuseSize) {
                writeCode(literalEncoding.codes[Tokens.END_BLOCK_MARKER]);
                prevHeader = 0;
            }
        }
        if (prevHeader == 0) {
            HuffmanEncoder swap = literalEncoding;
            literalEncoding = tmpLitEncoding;
            tmpLitEncoding = swap;
            generateCodegen(numLiterals, numOffsetsHuff, literalEncoding, HUFF_OFFSET);
            codegenEncoding.generate(codegenFreq, CODEGEN_CODE_COUNT, 7);
            int numCodegens = codegens();
            writeDynamicHeader(numLiterals, numOffsetsHuff, numCodegens, eof);
            wroteHuffman = true;
            prevHeader = headerSize();
            tablesOpened++;
        }
        int[] encoding = literalEncoding.codes;
        long b = bits;
        int nb = nbits;
        for (int i = offset; i < offset + length; i++) {
            int c = encoding[input[i] & 0xff];
            b |= (long) (c >>> 8) << (nb & 63);
            nb += c & 0xff;
            if (nb >= 48) {
                bits = b;
                nbits = nb;
                flushBits();
                b = bits;
                nb = nbits;
            }
        }
        bits = b;
        nbits = nb;
        if (eof || sync) {
            writeCode(literalEncoding.codes[Tokens.END_BLOCK_MARKER]);
            prevHeader = 0;
            wroteHuffman = false;
        }
    }
}
