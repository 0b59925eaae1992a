package dev.layerfold.dedup.codec.restart;

/**
 * zlib's crc32_combine(): the CRC-32 of two pieces joined, from each piece's CRC-32 and the second's
 * length, so segments encoded on different threads give the member's CRC without a pass over it.
 */
final class Crc32Combine {

    private static final int GF2_DIM = 32;

    private Crc32Combine() {
    }

    static long combine(long crc1, long crc2, long length2) {
        if (length2 <= 0) {
            return crc1;
        }
        long[] even = new long[GF2_DIM];
        long[] odd = new long[GF2_DIM];
        odd[0] = 0xedb88320L; // the CRC-32 polynomial: the operator for one zero bit
        long row = 1;
        for (int n = 1; n < GF2_DIM; n++) {
            odd[n] = row;
            row <<= 1;
        }
        square(even, odd); // two zero bits
        square(odd, even); // four zero bits
        do {
            square(even, odd);
            if ((length2 & 1) != 0) {
                crc1 = times(even, crc1);
            }
            length2 >>>= 1;
            if (length2 == 0) {
                break;
            }
            square(odd, even);
            if ((length2 & 1) != 0) {
                crc1 = times(odd, crc1);
            }
            length2 >>>= 1;
        } while (length2 != 0);
        return (crc1 ^ crc2) & 0xffffffffL;
    }

    private static long times(long[] matrix, long vector) {
        long sum = 0;
        for (int i = 0; vector != 0; i++, vector >>>= 1) {
            if ((vector & 1) != 0) {
                sum ^= matrix[i];
            }
        }
        return sum;
    }

    private static void square(long[] square, long[] matrix) {
        for (int n = 0; n < GF2_DIM; n++) {
            square[n] = times(matrix, matrix[n]);
        }
    }
}
