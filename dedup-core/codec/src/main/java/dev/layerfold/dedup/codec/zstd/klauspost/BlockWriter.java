package dev.layerfold.dedup.codec.zstd.klauspost;

/**
 * Writes a block from its literals and sequences as compress 1.18.0's blockEnc.encode does: raw
 * when it saves less than 16 bytes plus 1/64 or comes out no smaller than its content, RLE for one
 * repeated byte (since 1.17.8), else compressed, with Huffman literals (a new code or the previous block's) and
 * each sequence code's table chosen among new, previous and predefined. State carried between
 * blocks: the previous Huffman code and whether it may be reused, and the previous sequence tables;
 * one writer serves one frame, starting with none of them, as the Writer's encoder after a reset.
 * Blocks without sequences are raw below SpeedBetterCompression (the Writer's {@code allLitEntropy}).
 */
final class BlockWriter {

    private static final int RAW = 0;
    private static final int RLE = 1;
    private static final int COMPRESSED = 2;
    private static final int LITERALS_RAW = 0;
    private static final int LITERALS_RLE = 1;
    private static final int LITERALS_COMPRESSED = 2;
    private static final int LITERALS_TREELESS = 3;

    private final HuffmanLiterals huffman = new HuffmanLiterals();
    private final SequenceCoders literalLengths;
    private final SequenceCoders offsets;
    private final SequenceCoders matchLengths;
    private final Bytes literalsOut = new Bytes(128 * 1024);
    private final BitWriter bits = new BitWriter();
    private int[] llCodes = new int[2048];
    private int[] ofCodes = new int[2048];
    private int[] mlCodes = new int[2048];

    /** Whether blocks without sequences get Huffman-coded literals (the Writer's allLitEntropy: above SpeedDefault). */
    private final boolean literalBlockEntropy;

    /** Whether a block of one sequence at offset 1 and no literal but its first byte is written as an RLE block (since 1.17.8). */
    private final boolean writesRleBlocks;

    BlockWriter(KlauspostSettings.Release release, boolean literalBlockEntropy) {
        this.literalBlockEntropy = literalBlockEntropy;
        this.writesRleBlocks = release.writesRleBlocks();
        literalLengths = new SequenceCoders(SequenceCodes.LITERAL_LENGTHS, release.pricesTableDescriptions(), SequenceCodes.LITERAL_LENGTH_BITS);
        offsets = new SequenceCoders(SequenceCodes.OFFSETS, release.pricesTableDescriptions(), null);
        matchLengths = new SequenceCoders(SequenceCodes.MATCH_LENGTHS, release.pricesTableDescriptions(), SequenceCodes.MATCH_LENGTH_BITS);
    }

    /** A new frame: none of the previous frame's tables carry over, as in a new writer. */
    void reset() {
        huffman.reset();
        literalLengths.reset();
        offsets.reset();
        matchLengths.reset();
    }

    /**
     * Whether the next block would be written alike by both: the same Huffman code to reuse (or
     * none) and the same previous sequence tables. What else a writer keeps is rebuilt per block.
     */
    boolean sameState(BlockWriter other) {
        return huffman.sameState(other.huffman) && literalLengths.sameState(other.literalLengths) && offsets.sameState(other.offsets)
                && matchLengths.sameState(other.matchLengths);
    }

    /** The state {@link #sameState} compares, as bytes: what a restart point records where a warm-up leaves another. */
    byte[] state() {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream(1024);
        try (java.io.DataOutputStream out = new java.io.DataOutputStream(bytes)) {
            huffman.writeState(out);
            literalLengths.writeState(out);
            offsets.writeState(out);
            matchLengths.writeState(out);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * Takes the state {@link #state} gave.
     *
     * @throws IllegalArgumentException if the bytes are not such a state (a damaged recipe)
     */
    void setState(byte[] state) {
        java.io.ByteArrayInputStream bytes = new java.io.ByteArrayInputStream(state);
        try (java.io.DataInputStream in = new java.io.DataInputStream(bytes)) {
            huffman.readState(in);
            literalLengths.readState(in);
            offsets.readState(in);
            matchLengths.readState(in);
            if (bytes.available() > 0) {
                throw new java.io.IOException(bytes.available() + " bytes past its end");
            }
        } catch (java.io.IOException | RuntimeException e) {
            throw new IllegalArgumentException("not an entropy state: " + e.getMessage(), e);
        }
    }

    /** Appends the block (header included) for {@code content[offset, offset+block.size)} to {@code out}. */
    void write(Block block, byte[] content, int offset, boolean last, Bytes out) {
        if (block.sequences == 0) {
            literalBlock(block.literals.data, 0, block.literals.length, last, out);
            return;
        }
        if (writesRleBlocks && block.sequences == 1 && block.size > 0 && block.literals.length <= 1 && block.literalLengths[0] == block.literals.length
                && block.offsets[0] == 4) {
            header(last, RLE, block.matchLengths[0] + 3 + block.literalLengths[0], out);
            out.put(content[offset]);
            return;
        }
        int saved = block.size - block.literals.length - (block.size >> 6);
        if (saved < 16) {
            literalBlock(content, offset, block.size, last, out);
            return;
        }
        int start = out.length;
        out.putLittleEndian(0, 3);
        literals(block.literals, out);
        sequences(block, out);
        int size = out.length - start - 3;
        if (size >= block.size) {
            out.length = start;
            raw(content, offset, block.size, last, out);
            huffman.reuseAllowed = false;
            return;
        }
        int header = (last ? 1 : 0) | COMPRESSED << 1 | size << 3;
        out.data[start] = (byte) header;
        out.data[start + 1] = (byte) (header >>> 8);
        out.data[start + 2] = (byte) (header >>> 16);
        literalLengths.used(chosenLiteralLengths);
        matchLengths.used(chosenMatchLengths);
        offsets.used(chosenOffsets);
    }

    /**
     * A block of literals alone (encodeLits): raw below SpeedBetterCompression or under 32 bytes,
     * else Huffman-coded if that saves something (a sixteenth, and the headers), RLE if one byte.
     */
    private void literalBlock(byte[] literals, int offset, int n, boolean last, Bytes out) {
        if (!literalBlockEntropy || n < 32) {
            raw(literals, offset, n, last, out);
            return;
        }
        boolean single = n < 1024;
        HuffmanLiterals.Outcome outcome = huffman.compress(literals, offset, n, !single, literalsOut);
        if ((outcome == HuffmanLiterals.Outcome.COMPRESSED || outcome == HuffmanLiterals.Outcome.REUSED) && literalsOut.length + 5 > n
                && literalsOut.length + compressedHeaderSize(literalsOut.length, n) >= n) {
            outcome = HuffmanLiterals.Outcome.INCOMPRESSIBLE;
        }
        switch (outcome) {
            case INCOMPRESSIBLE -> raw(literals, offset, n, last, out);
            case RLE -> {
                header(last, RLE, n, out);
                out.put(literals[offset]);
            }
            case COMPRESSED, REUSED -> {
                huffman.reuseAllowed = true;
                int type = outcome == HuffmanLiterals.Outcome.REUSED ? LITERALS_TREELESS : LITERALS_COMPRESSED;
                header(last, COMPRESSED, literalsOut.length + compressedHeaderSize(literalsOut.length, n) + 1, out);
                compressedHeader(type, literalsOut.length, n, single, out);
                out.put(literalsOut);
                out.put(0);
            }
        }
    }

    static void header(boolean last, int type, int size, Bytes out) {
        out.putLittleEndian((last ? 1 : 0) | type << 1 | size << 3, 3);
    }

    static void raw(byte[] content, int offset, int length, boolean last, Bytes out) {
        header(last, RAW, length, out);
        out.put(content, offset, length);
    }

    private void literals(Bytes literals, Bytes out) {
        int n = literals.length;
        HuffmanLiterals.Outcome outcome = HuffmanLiterals.Outcome.INCOMPRESSIBLE;
        boolean single = n < 1024;
        if (n > 16) {
            outcome = huffman.compress(literals.data, 0, n, !single, literalsOut);
        }
        if (outcome == HuffmanLiterals.Outcome.COMPRESSED || outcome == HuffmanLiterals.Outcome.REUSED) {
            if (literalsOut.length + 5 > n && literalsOut.length + compressedHeaderSize(literalsOut.length, n) >= n + rawHeaderSize(n)) {
                // a new code is then kept for reuse though not written; a later block reusing it writes a frame no decoder reads (fixed in 1.20.4)
                outcome = HuffmanLiterals.Outcome.INCOMPRESSIBLE;
            }
        }
        switch (outcome) {
            case INCOMPRESSIBLE -> {
                rawHeader(LITERALS_RAW, n, out);
                out.put(literals);
            }
            case RLE -> {
                rawHeader(LITERALS_RLE, n, out);
                out.put(literals.data[0]);
            }
            case COMPRESSED, REUSED -> {
                int type = outcome == HuffmanLiterals.Outcome.REUSED ? LITERALS_TREELESS : LITERALS_COMPRESSED;
                compressedHeader(type, literalsOut.length, n, single, out);
                out.put(literalsOut);
                huffman.reuseAllowed = true;
            }
        }
    }

    private static int rawHeaderSize(int n) {
        int bits = 32 - Integer.numberOfLeadingZeros(n);
        return bits < 5 ? 1 : bits < 12 ? 2 : 3;
    }

    private static void rawHeader(int type, int n, Bytes out) {
        switch (rawHeaderSize(n)) {
            case 1 -> out.put(type | n << 3);
            case 2 -> out.putLittleEndian(type | 1 << 2 | n << 4, 2);
            default -> out.putLittleEndian(type | 3 << 2 | n << 4, 3);
        }
    }

    private static int compressedHeaderSize(int compressed, int n) {
        int bits = Math.max(32 - Integer.numberOfLeadingZeros(compressed), 32 - Integer.numberOfLeadingZeros(n));
        return bits <= 10 ? 3 : bits <= 14 ? 4 : 5;
    }

    private static void compressedHeader(int type, int compressed, int n, boolean single, Bytes out) {
        switch (compressedHeaderSize(compressed, n)) {
            case 3 -> out.putLittleEndian(type | (single ? 0 : 1 << 2) | (long) n << 4 | (long) compressed << 14, 3);
            case 4 -> out.putLittleEndian(type | 2 << 2 | (long) n << 4 | (long) compressed << 18, 4);
            default -> out.putLittleEndian(type | 3 << 2 | (long) n << 4 | (long) compressed << 22, 5);
        }
    }

    private SequenceTable chosenLiteralLengths;
    private SequenceTable chosenOffsets;
    private SequenceTable chosenMatchLengths;

    private void sequences(Block block, Bytes out) {
        int n = block.sequences;
        if (n < 128) {
            out.put(n);
        } else if (n < 0x7f00) {
            out.put(128 + (n >>> 8));
            out.put(n);
        } else {
            out.put(255);
            out.putLittleEndian(n - 0x7f00, 2);
        }
        codes(block);
        literalLengths.current.normalize(n);
        offsets.current.normalize(n);
        matchLengths.current.normalize(n);
        chosenLiteralLengths = choose(literalLengths, llCodes[0]);
        chosenOffsets = choose(offsets, ofCodes[0]);
        chosenMatchLengths = choose(matchLengths, mlCodes[0]);
        out.put(literalLengths.mode(chosenLiteralLengths) << 6 | offsets.mode(chosenOffsets) << 4 | matchLengths.mode(chosenMatchLengths) << 2);
        chosenLiteralLengths.setBits(SequenceCodes.LITERAL_LENGTH_BITS);
        chosenMatchLengths.setBits(SequenceCodes.MATCH_LENGTH_BITS);
        chosenOffsets.setBits(null);
        chosenLiteralLengths.writeDescription(out);
        chosenOffsets.writeDescription(out);
        chosenMatchLengths.writeDescription(out);
        bitstream(block, out);
    }

    private static SequenceTable choose(SequenceCoders coders, int firstCode) {
        if (coders.current.useRle) {
            coders.current.setRle(firstCode);
            return coders.current;
        }
        return coders.choose();
    }

    /** Codes each sequence and counts the codes into the current tables' histograms (genCodes). */
    private void codes(Block block) {
        int n = block.sequences;
        if (llCodes.length < n) {
            llCodes = new int[n];
            ofCodes = new int[n];
            mlCodes = new int[n];
        }
        SequenceTable ll = literalLengths.current;
        SequenceTable of = offsets.current;
        SequenceTable ml = matchLengths.current;
        java.util.Arrays.fill(ll.count, 0);
        java.util.Arrays.fill(of.count, 0);
        java.util.Arrays.fill(ml.count, 0);
        int llMax = 0;
        int ofMax = 0;
        int mlMax = 0;
        for (int i = 0; i < n; i++) {
            int code = SequenceCodes.literalLengthCode(block.literalLengths[i]);
            llCodes[i] = code;
            ll.count[code]++;
            llMax = Math.max(llMax, code);
            code = SequenceCodes.offsetCode(block.offsets[i]);
            ofCodes[i] = code;
            of.count[code]++;
            ofMax = Math.max(ofMax, code);
            code = SequenceCodes.matchLengthCode(block.matchLengths[i]);
            mlCodes[i] = code;
            ml.count[code]++;
            mlMax = Math.max(mlMax, code);
        }
        ml.histogramFinished(mlMax, max(ml.count, mlMax));
        of.histogramFinished(ofMax, max(of.count, ofMax));
        ll.histogramFinished(llMax, max(ll.count, llMax));
    }

    private static int max(int[] count, int maxSymbol) {
        int max = 0;
        for (int i = 0; i <= maxSymbol; i++) {
            max = Math.max(max, count[i]);
        }
        return max;
    }

    /** The interleaved FSE states and extra bits, last sequence first (RFC 8878 3.1.1.4). */
    private void bitstream(Block block, Bytes out) {
        FseTable ll = chosenLiteralLengths.table;
        FseTable of = chosenOffsets.table;
        FseTable ml = chosenMatchLengths.table;
        int[] llBits = chosenLiteralLengths.outBits;
        int[] ofBits = chosenOffsets.outBits;
        int[] mlBits = chosenMatchLengths.outBits;
        bits.reset(out);
        int seq = block.sequences - 1;
        int llState = initialState(ll, llCodes[seq]);
        int ofState = initialState(of, ofCodes[seq]);
        int mlState = initialState(ml, mlCodes[seq]);
        bits.add(block.literalLengths[seq], llBits[llCodes[seq]]);
        bits.add(block.matchLengths[seq], mlBits[mlCodes[seq]]);
        bits.add(block.offsets[seq], ofBits[ofCodes[seq]]);
        for (seq--; seq >= 0; seq--) {
            ofState = of.encode(bits, ofState, ofCodes[seq]);
            mlState = ml.encode(bits, mlState, mlCodes[seq]);
            llState = ll.encode(bits, llState, llCodes[seq]);
            bits.add(block.literalLengths[seq], llBits[llCodes[seq]]);
            bits.add(block.matchLengths[seq], mlBits[mlCodes[seq]]);
            bits.add(block.offsets[seq], ofBits[ofCodes[seq]]);
        }
        bits.add(mlState, ml.tableLog);
        bits.add(ofState, of.tableLog);
        bits.add(llState, ll.tableLog);
        bits.close();
    }

    private static int initialState(FseTable table, int code) {
        return table.stateTableLength == 1 ? 0 : table.initialState(code);
    }
}
