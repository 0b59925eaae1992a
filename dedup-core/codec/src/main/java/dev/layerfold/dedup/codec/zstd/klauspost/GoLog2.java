package dev.layerfold.dedup.codec.zstd.klauspost;

/**
 * Go's {@code math.Log2} and {@code compress.ShannonEntropyBits}, bit for bit: SpeedBestCompression
 * weighs matches by the block's entropy, rounded up from a sum of logarithms, so the logarithm must
 * round as Go's does (its FreeBSD-derived log, which Go's amd64 assembly computes in the same
 * steps), not as Java's.
 */
final class GoLog2 {

    private static final double LN2_HI = 6.93147180369123816490e-01;
    private static final double LN2_LO = 1.90821492927058770002e-10;
    private static final double L1 = 6.666666666666735130e-01;
    private static final double L2 = 3.999999999940941908e-01;
    private static final double L3 = 2.857142874366239149e-01;
    private static final double L4 = 2.222219843214978396e-01;
    private static final double L5 = 1.818357216161805012e-01;
    private static final double L6 = 1.531383769920937332e-01;
    private static final double L7 = 1.479819860511658591e-01;
    private static final double SQRT2_HALF = 7.07106781186547524401e-01;
    /** 1/Ln2 as Go's constant arithmetic rounds it. */
    private static final double INV_LN2 = Double.longBitsToDouble(0x3FF71547652B82FEL);

    private GoLog2() {
    }

    /** compress.ShannonEntropyBits: the bits an order-0 entropy coder needs for the bytes, rounded up per symbol. */
    static int shannonEntropyBits(byte[] data, int offset, int length) {
        if (length == 0) {
            return 0;
        }
        int[] histogram = new int[256];
        for (int i = offset; i < offset + length; i++) {
            histogram[data[i] & 0xFF]++;
        }
        double shannon = 0;
        double invTotal = 1.0 / length;
        for (int v : histogram) {
            if (v > 0) {
                double n = v;
                shannon += Math.ceil(-log2(n * invTotal) * n);
            }
        }
        return (int) Math.ceil(shannon);
    }

    /** math.Log2 for a positive normal {@code x}. */
    static double log2(double x) {
        int exponent = Math.getExponent(x) + 1;
        double fraction = x / Math.scalb(1.0, exponent);
        if (fraction == 0.5) {
            return exponent - 1;
        }
        return log(fraction) * INV_LN2 + exponent;
    }

    /** math.Log for a positive normal {@code x}. */
    private static double log(double x) {
        int exponent = Math.getExponent(x) + 1;
        double f1 = x / Math.scalb(1.0, exponent);
        if (f1 < SQRT2_HALF) {
            f1 *= 2;
            exponent--;
        }
        double f = f1 - 1;
        double k = exponent;
        double s = f / (2 + f);
        double s2 = s * s;
        double s4 = s2 * s2;
        double t1 = s2 * (L1 + s4 * (L3 + s4 * (L5 + s4 * L7)));
        double t2 = s4 * (L2 + s4 * (L4 + s4 * L6));
        double r = t1 + t2;
        double hfsq = 0.5 * f * f;
        return k * LN2_HI - ((hfsq - (s * (hfsq + r) + k * LN2_LO)) - f);
    }
}
