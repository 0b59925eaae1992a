package dev.layerfold.benchmark;

import java.io.PrintStream;
import java.util.Arrays;

/** Prints one line per measured quantity: both medians, their unit and the ratio ours/peer. */
public final class BenchmarkReport {

    private final PrintStream out;

    public BenchmarkReport(PrintStream out) {
        this.out = out;
    }

    /**
     * Reports a comparison. {@code higherIsBetter} says how to read the ratio: the printed ratio is
     * always "how many times as good as the peer", so 1.0x means parity and more is better.
     */
    public void compare(String suite, String metric, String unit, double[] ours, double[] peer, String peerName,
                        boolean higherIsBetter) {
        double oursMedian = median(ours);
        double peerMedian = median(peer);
        double ratio = higherIsBetter ? oursMedian / peerMedian : peerMedian / oursMedian;
        out.printf("%-10s %-36s layerfold %10.2f %-6s %s %10.2f %-6s ratio %5.2fx (n=%d; ranges %s and %s)%n",
                suite, metric, oursMedian, unit, peerName, peerMedian, unit, ratio, ours.length, range(ours),
                range(peer));
    }

    /** The spread behind a median, so a reader can tell a steady ratio from a noisy one. */
    private static String range(double[] samples) {
        return String.format("%.2f-%.2f", Arrays.stream(samples).min().orElse(Double.NaN),
                Arrays.stream(samples).max().orElse(Double.NaN));
    }

    /** Reports a quantity with no peer (e.g. recipe size as a share of the layer). */
    public void value(String suite, String metric, String unit, double[] samples) {
        out.printf("%-10s %-36s %10.3f %s (median of %d)%n", suite, metric, median(samples), unit, samples.length);
    }

    public static double median(double[] samples) {
        double[] sorted = samples.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }
}
