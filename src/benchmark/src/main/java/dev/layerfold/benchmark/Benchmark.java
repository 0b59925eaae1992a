package dev.layerfold.benchmark;

/**
 * One benchmark suite: measures Layerfold and a peer on the same data in the same run and reports
 * medians and the ratio between them (noisy machines make absolute numbers meaningless alone).
 */
public interface Benchmark {

    /** The name used to select this suite on the command line. */
    String name();

    void run(BenchmarkReport report) throws Exception;
}
