package dev.layerfold.benchmark.registry;

/**
 * What the registry suite measures, how it is printed, and which way is better. Each operation is
 * measured twice: by the wall clock, as a client sees it, and by the CPU time the registry process
 * spent on it, which a busy shared machine does not distort.
 */
enum Metric {
    LARGE_PULL("large-blob pull (512 MiB)", "MB/s", true),
    LARGE_PULL_CPU("large-blob pull, registry CPU", "ms/MB", false),
    SMALL_GET("small-blob GET latency (4 KiB)", "ms", false),
    SMALL_GET_CPU("small-blob GET, registry CPU", "us/GET", false),
    MONOLITHIC_PUSH("push monolithic (256 MiB)", "MB/s", true),
    MONOLITHIC_PUSH_CPU("push monolithic, registry CPU", "ms/MB", false),
    CHUNKED_PUSH("push chunked (256 MiB, 8 MiB PATCH)", "MB/s", true),
    CHUNKED_PUSH_CPU("push chunked, registry CPU", "ms/MB", false);

    final String label;
    final String unit;
    final boolean higherIsBetter;

    Metric(String label, String unit, boolean higherIsBetter) {
        this.label = label;
        this.unit = unit;
        this.higherIsBetter = higherIsBetter;
    }
}
