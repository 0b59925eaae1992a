package dev.layerfold.dedup.codec.zstd.klauspost;

/**
 * Huffman-compresses a block's literals as compress 1.18.0's huff0 does for its zstd encoder
 * (Compress1X below 1024 literals, Compress4X from there, WantLogLess 4): a new code, or the
 * previous block's where reuse is allowed and its estimate is no worse; the result must save a
 * sixteenth. The code last written becomes the one a later block may reuse.
 */
final class HuffmanLiterals {

    enum Outcome { COMPRESSED, REUSED, RLE, INCOMPRESSIBLE }

    private static final int TABLE_LOG = 11;
    private static final int MIN_TABLE_LOG = 5;

    /** Whether the next block may reuse {@link #previous} (huff0's ReusePolicyAllow; else ReusePolicyNone). */
    boolean reuseAllowed;
    private final int[] count = new int[256];
    private int symbolLen;
    private final long[] nodes = new long[513];
    private HuffmanCode previous = new HuffmanCode();
    private HuffmanCode current = new HuffmanCode();
    private final HuffmanWeights weights = new HuffmanWeights();
    private final BitWriter bits = new BitWriter();

    /** Compresses {@code in[offset, offset+length)} into {@code out} (emptied first); COMPRESSED and REUSED leave its bytes there. */
    Outcome compress(byte[] in, int offset, int length, boolean fourStreams, Bytes out) {
        if (!reuseAllowed) {
            previous.length = 0;
        }
        java.util.Arrays.fill(count, 0);
        for (int i = offset; i < offset + length; i++) {
            count[in[i] & 0xFF]++;
        }
        int maxCount = 0;
        boolean canReuse = previous.length > 0;
        for (int i = 0; i < 256; i++) {
            if (count[i] == 0) {
                continue;
            }
            maxCount = Math.max(maxCount, count[i]);
            symbolLen = i + 1;
            if (i >= previous.length || previous.nBits[i] == 0) {
                canReuse = false;
            }
        }
        int wantSize = length - (length >> 4);
        if (maxCount >= length) {
            return length == 1 ? Outcome.INCOMPRESSIBLE : Outcome.RLE;
        }
        if (maxCount == 1 || maxCount < length >> 7) {
            return Outcome.INCOMPRESSIBLE;
        }
        current.build(count, symbolLen, optimalTableLog(length), nodes);
        out.clear();
        if (reuseAllowed && canReuse) {
            int oldSize = previous.estimateSize(count, symbolLen);
            int newSize = current.estimateSize(count, symbolLen);
            // huff0 adds the length of its output so far, which is always 0 here, to both sides
            if (oldSize <= newSize || 12 >= wantSize) {
                if (!streams(previous, in, offset, length, fourStreams, out) || out.length >= wantSize) {
                    return Outcome.INCOMPRESSIBLE;
                }
                return Outcome.REUSED;
            }
        }
        if (!weights.write(current, out) || !streams(current, in, offset, length, fourStreams, out) || out.length >= wantSize) {
            return Outcome.INCOMPRESSIBLE;
        }
        HuffmanCode swap = previous;
        previous = current;
        current = swap;
        return Outcome.COMPRESSED;
    }

    /**
     * Whether the next block's literals would be coded alike by both: the same code to reuse, or
     * none. (The scratch nodes a build starts from are never read before written: the proof checks it.)
     */
    boolean sameState(HuffmanLiterals other) {
        boolean reusable = reuseAllowed && previous.length > 0;
        boolean otherReusable = other.reuseAllowed && other.previous.length > 0;
        return reusable == otherReusable
                && (!reusable || previous.sameCode(other.previous));
    }

    /** Writes the state {@link #sameState} compares: whether there is a code to reuse, and the code. */
    void writeState(java.io.DataOutputStream out) throws java.io.IOException {
        boolean reusable = reuseAllowed && previous.length > 0;
        out.writeShort(reusable ? previous.length : 0);
        if (reusable) {
            out.writeByte(previous.tableLog);
            for (int i = 0; i < previous.length; i++) {
                out.writeByte(previous.nBits[i]);
                out.writeShort(previous.code[i]);
            }
        }
    }

    /** Takes the state {@link #writeState} wrote. */
    void readState(java.io.DataInputStream in) throws java.io.IOException {
        int length = in.readUnsignedShort();
        if (length > 256) {
            throw new java.io.IOException("a Huffman code of " + length + " symbols");
        }
        reuseAllowed = length > 0;
        previous.length = length;
        if (length == 0) {
            return;
        }
        previous.tableLog = in.readUnsignedByte();
        java.util.Arrays.fill(previous.nBits, 0);
        java.util.Arrays.fill(previous.code, 0);
        for (int i = 0; i < length; i++) {
            previous.nBits[i] = in.readUnsignedByte();
            previous.code[i] = in.readUnsignedShort();
        }
    }

    /** A new frame: no code to reuse, as in a new one. */
    void reset() {
        reuseAllowed = false;
        previous.length = 0;
    }

    private int optimalTableLog(int length) {
        int minBitsSrc = FseTable.highBit(length) + 1;
        int minBitsSymbols = FseTable.highBit(symbolLen - 1) + 2;
        int minBits = Math.min(minBitsSrc, minBitsSymbols);
        int maxBitsSrc = (FseTable.highBit(length - 1) - 1) & 0xFF;
        int tableLog = TABLE_LOG;
        if (maxBitsSrc < tableLog) {
            tableLog = maxBitsSrc;
        }
        if (minBits > tableLog) {
            tableLog = minBits;
        }
        return Math.max(MIN_TABLE_LOG, Math.min(HuffmanCode.TABLE_LOG_MAX, tableLog));
    }

    /** One stream, or four with a jump table of the first three's lengths; false if a stream outgrows 64 KiB. */
    private boolean streams(HuffmanCode code, byte[] in, int offset, int length, boolean fourStreams, Bytes out) {
        if (!fourStreams) {
            stream(code, in, offset, length, out);
            return true;
        }
        int segmentSize = (length + 3) / 4;
        int jumpTable = out.length;
        out.putLittleEndian(0, 6);
        int end = offset + length;
        for (int i = 0; i < 4; i++) {
            int n = Math.min(segmentSize, end - offset);
            int start = out.length;
            stream(code, in, offset, n, out);
            offset += n;
            int streamLength = out.length - start;
            if (streamLength > 0xFFFF) {
                return false;
            }
            if (i < 3) {
                out.data[jumpTable + 2 * i] = (byte) streamLength;
                out.data[jumpTable + 2 * i + 1] = (byte) (streamLength >>> 8);
            }
        }
        return true;
    }

    /** Symbols are written last to first, so that the decoder reads them forwards. */
    private void stream(HuffmanCode code, byte[] in, int offset, int length, Bytes out) {
        bits.reset(out);
        for (int i = offset + length - 1; i >= offset; i--) {
            int symbol = in[i] & 0xFF;
            bits.add(code.code[symbol], code.nBits[symbol]);
        }
        bits.close();
    }
}
