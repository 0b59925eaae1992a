package dev.layerfold.dedup.codec.zstd.klauspost;

/**
 * A Huffman code for literals: each symbol's length and code, built from counts with lengths
 * capped at the table log (compress 1.18.0 huff0's buildCTable, huffSort and setMaxHeight, after
 * zstd's HUF_buildCTable), and written as a table description.
 */
final class HuffmanCode {

    static final int TABLE_LOG_MAX = 11;
    private static final int NODES = 512;
    private static final int NODE_MASK = NODES - 1;
    private static final long NO_SYMBOL = 0xF0F0F0F0L;

    final int[] nBits = new int[256];
    final int[] code = new int[256];
    /** How many symbols the table covers (symbols at and above it have no code). */
    int length;
    int tableLog;

    /** Whether both code the same symbols alike. */
    boolean sameCode(HuffmanCode other) {
        return length == other.length && tableLog == other.tableLog && java.util.Arrays.equals(nBits, 0, length, other.nBits, 0, length)
                && java.util.Arrays.equals(code, 0, length, other.code, 0, length);
    }

    /**
     * Builds the code for {@code count[0..symbolLen)}, lengths at most {@code maxTableLog}.
     * @param nodes scratch space of 513 entries (count, parent, symbol, length), kept between builds as the Go encoder keeps it
     */
    void build(int[] count, int symbolLen, int maxTableLog, long[] nodes) {
        sort(count, symbolLen, nodes);
        length = symbolLen;
        java.util.Arrays.fill(nBits, 0, 256, 0);
        java.util.Arrays.fill(code, 0, 256, 0);
        int startNode = symbolLen;
        int nonNullRank = symbolLen - 1;
        int nodeNb = startNode;
        while (count(nodes, 1 + nonNullRank) == 0) {
            nonNullRank--;
        }
        int lowS = nonNullRank;
        int nodeRoot = nodeNb + lowS - 1;
        int lowN = nodeNb;
        nodes[1 + nodeNb] = withCount(nodes[1 + nodeNb], count(nodes, 1 + lowS) + count(nodes, 1 + lowS - 1));
        nodes[1 + lowS] = withParent(nodes[1 + lowS], nodeNb);
        nodes[1 + lowS - 1] = withParent(nodes[1 + lowS - 1], nodeNb);
        nodeNb++;
        lowS -= 2;
        for (int n = nodeNb; n <= nodeRoot; n++) {
            nodes[1 + n] = withCount(nodes[1 + n], 1L << 30);
        }
        nodes[0] = withCount(nodes[0], 1L << 31);
        while (nodeNb <= nodeRoot) {
            int n1;
            int n2;
            if (count(nodes, lowS + 1) < count(nodes, lowN + 1)) {
                n1 = lowS--;
            } else {
                n1 = lowN++;
            }
            if (count(nodes, lowS + 1) < count(nodes, lowN + 1)) {
                n2 = lowS--;
            } else {
                n2 = lowN++;
            }
            nodes[1 + nodeNb] = withCount(nodes[1 + nodeNb], count(nodes, n1 + 1) + count(nodes, n2 + 1));
            nodes[n1 + 1] = withParent(nodes[n1 + 1], nodeNb);
            nodes[n2 + 1] = withParent(nodes[n2 + 1], nodeNb);
            nodeNb++;
        }
        nodes[1 + nodeRoot] = withNbBits(nodes[1 + nodeRoot], 0);
        for (int n = nodeRoot - 1; n >= startNode; n--) {
            nodes[1 + n] = withNbBits(nodes[1 + n], nbBits(nodes, 1 + parent(nodes, 1 + n)) + 1);
        }
        for (int n = 0; n <= nonNullRank; n++) {
            nodes[1 + n] = withNbBits(nodes[1 + n], nbBits(nodes, 1 + parent(nodes, 1 + n)) + 1);
        }
        tableLog = limitHeight(nonNullRank, maxTableLog, nodes);
        int[] perRank = new int[16];
        int[] valPerRank = new int[16];
        for (int n = 0; n <= nonNullRank; n++) {
            perRank[nbBits(nodes, 1 + n)]++;
        }
        int min = 0;
        for (int n = tableLog; n > 0; n--) {
            valPerRank[n] = min;
            min += perRank[n];
            min >>>= 1;
        }
        for (int n = 0; n <= nonNullRank; n++) {
            nBits[symbol(nodes, 1 + n)] = nbBits(nodes, 1 + n);
        }
        for (int n = 0; n < symbolLen; n++) {
            int bits = nBits[n] & 15;
            code[n] = valPerRank[bits] & 0xFFFF;
            valPerRank[bits]++;
        }
    }

    /** Sorts the symbols by count, largest first, into nodes[1..] (huffSort). */
    private static void sort(int[] count, int symbolLen, long[] nodes) {
        int[] base = new int[32];
        int[] current = new int[32];
        for (int i = 0; i < symbolLen; i++) {
            base[FseTable.highBit(count[i] + 1) & 31]++;
        }
        for (int n = 19; n > 0; n--) {
            base[n - 1] += base[n];
        }
        System.arraycopy(base, 0, current, 0, 19);
        for (int n = 0; n < symbolLen; n++) {
            long c = count[n] & 0xFFFFFFFFL;
            int r = (FseTable.highBit(count[n] + 1) + 1) & 31;
            int pos = current[r]++;
            long prev = nodes[1 + ((pos - 1) & NODE_MASK)];
            while (pos > base[r] && c > (prev & 0xFFFFFFFFL)) {
                nodes[1 + (pos & NODE_MASK)] = prev;
                pos--;
                prev = nodes[1 + ((pos - 1) & NODE_MASK)];
            }
            nodes[1 + (pos & NODE_MASK)] = c | (long) n << 48;
        }
    }

    /** Caps code lengths at {@code maxNbBits}, repaying the Kraft debt from the shortest codes (HUF_setMaxHeight). */
    private static int limitHeight(int lastNonNull, int maxNbBits, long[] nodes) {
        int largestBits = nbBits(nodes, 1 + lastNonNull);
        if (largestBits <= maxNbBits) {
            return largestBits;
        }
        int totalCost = 0;
        int baseCost = 1 << (largestBits - maxNbBits);
        int n = lastNonNull;
        while (nbBits(nodes, 1 + n) > maxNbBits) {
            totalCost += baseCost - (1 << (largestBits - nbBits(nodes, 1 + n)));
            nodes[1 + n] = withNbBits(nodes[1 + n], maxNbBits);
            n--;
        }
        while (nbBits(nodes, 1 + n) == maxNbBits) {
            n--;
        }
        totalCost >>= largestBits - maxNbBits;
        long[] rankLast = new long[TABLE_LOG_MAX + 2];
        java.util.Arrays.fill(rankLast, NO_SYMBOL);
        int currentNbBits = maxNbBits;
        for (int pos = n; pos >= 0; pos--) {
            if (nbBits(nodes, 1 + pos) >= currentNbBits) {
                continue;
            }
            currentNbBits = nbBits(nodes, 1 + pos);
            rankLast[maxNbBits - currentNbBits] = pos;
        }
        while (totalCost > 0) {
            int nBitsToDecrease = FseTable.highBit(totalCost) + 1;
            for (; nBitsToDecrease > 1; nBitsToDecrease--) {
                long highPos = rankLast[nBitsToDecrease];
                long lowPos = rankLast[nBitsToDecrease - 1];
                if (highPos == NO_SYMBOL) {
                    continue;
                }
                if (lowPos == NO_SYMBOL) {
                    break;
                }
                long highTotal = count(nodes, 1 + (int) highPos);
                long lowTotal = 2 * count(nodes, 1 + (int) lowPos);
                if (highTotal <= lowTotal) {
                    break;
                }
            }
            while (nBitsToDecrease <= TABLE_LOG_MAX && rankLast[nBitsToDecrease] == NO_SYMBOL) {
                nBitsToDecrease++;
            }
            totalCost -= 1 << (nBitsToDecrease - 1);
            if (rankLast[nBitsToDecrease - 1] == NO_SYMBOL) {
                rankLast[nBitsToDecrease - 1] = rankLast[nBitsToDecrease];
            }
            int at = 1 + (int) rankLast[nBitsToDecrease];
            nodes[at] = withNbBits(nodes[at], nbBits(nodes, at) + 1);
            if (rankLast[nBitsToDecrease] == 0) {
                rankLast[nBitsToDecrease] = NO_SYMBOL;
            } else {
                rankLast[nBitsToDecrease]--;
                if (nbBits(nodes, 1 + (int) rankLast[nBitsToDecrease]) != maxNbBits - nBitsToDecrease) {
                    rankLast[nBitsToDecrease] = NO_SYMBOL;
                }
            }
        }
        while (totalCost < 0) {
            if (rankLast[1] == NO_SYMBOL) {
                while (nbBits(nodes, 1 + n) == maxNbBits) {
                    n--;
                }
                nodes[1 + n + 1] = withNbBits(nodes[1 + n + 1], nbBits(nodes, 1 + n + 1) - 1);
                rankLast[1] = n + 1;
                totalCost++;
                continue;
            }
            int at = 1 + (int) rankLast[1] + 1;
            nodes[at] = withNbBits(nodes[at], nbBits(nodes, at) - 1);
            rankLast[1]++;
            totalCost++;
        }
        return maxNbBits;
    }

    private static long count(long[] nodes, int at) {
        return nodes[at] & 0xFFFFFFFFL;
    }

    private static int parent(long[] nodes, int at) {
        return (int) (nodes[at] >>> 32) & 0xFFFF;
    }

    private static int symbol(long[] nodes, int at) {
        return (int) (nodes[at] >>> 48) & 0xFF;
    }

    private static int nbBits(long[] nodes, int at) {
        return (int) (nodes[at] >>> 56) & 0xFF;
    }

    private static long withCount(long node, long count) {
        return node & 0xFFFFFFFF00000000L | count & 0xFFFFFFFFL;
    }

    private static long withParent(long node, int parent) {
        return node & 0xFFFF0000FFFFFFFFL | (long) (parent & 0xFFFF) << 32;
    }

    private static long withNbBits(long node, int nbBits) {
        return node & 0x00FFFFFFFFFFFFFFL | (long) (nbBits & 0xFF) << 56;
    }

    /** Whether every symbol counted has a code here. */
    boolean covers(int[] count, int symbolLen) {
        if (length < symbolLen) {
            return false;
        }
        for (int i = 0; i < symbolLen; i++) {
            if (count[i] != 0 && nBits[i] == 0) {
                return false;
            }
        }
        return true;
    }

    /** Bytes the counted symbols take with this code, rounded up from bits plus 7 (cTable.estimateSize). */
    int estimateSize(int[] count, int symbolLen) {
        long bits = 7;
        for (int i = 0; i < symbolLen; i++) {
            bits += (long) nBits[i] * (count[i] & 0xFFFFFFFFL);
        }
        return (int) ((bits & 0xFFFFFFFFL) >>> 3);
    }
}
