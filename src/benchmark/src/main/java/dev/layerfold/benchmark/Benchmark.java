package dev.layerfold.benchmark;

/**
 * One benchmark suite: measures Layerfold and a peer on the same data in the same run and reports
 * medians and the ratio between them (noisy machines make absolute numbers meaningless alone).
 */
public interface Benchmark {

    /**
     * Untimed rounds an encoder port runs before it is timed against a native or Go peer, which needs
     * none. C2 recompiles the larger ports' loops after uncommon traps for two to three rounds of tens
     * of MiB (PrintCompilation; longer on a loaded machine, where the compiler threads wait for a core):
     * the klauspost zstd port's first rounds ran at a third to a half of its speed, pgzip's at 0.3-0.6x.
     */
    int JIT_WARM_UP_ROUNDS = 3;

    /** The name used to select this suite on the command line. */
    String name();

    void run(BenchmarkReport report) throws Exception;
}
