package dev.layerfold.trace;

import java.util.Arrays;
import java.util.random.RandomGenerator;

/** Draws ranks 0..n-1 with probability proportional to 1 / (rank + 1)^exponent. */
final class Zipf {

    private final double[] cumulative;

    Zipf(int n, double exponent) {
        cumulative = new double[n];
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += 1 / Math.pow(i + 1, exponent);
            cumulative[i] = sum;
        }
    }

    int next(RandomGenerator random) {
        double target = random.nextDouble() * cumulative[cumulative.length - 1];
        int found = Arrays.binarySearch(cumulative, target);
        return Math.min(cumulative.length - 1, found >= 0 ? found : -found - 1);
    }
}
