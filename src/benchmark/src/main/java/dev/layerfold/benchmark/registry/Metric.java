package dev.layerfold.benchmark.registry;

/** What the registry suite measures, how it is printed, and which way is better. */
enum Metric {
    LARGE_PULL("large-blob pull (512 MiB)", "MB/s", true),
    SMALL_GET("small-blob GET latency (4 KiB)", "ms", false),
    MONOLITHIC_PUSH("push monolithic (256 MiB)", "MB/s", true),
    CHUNKED_PUSH("push chunked (256 MiB, 8 MiB PATCH)", "MB/s", true);

    final String label;
    final String unit;
    final boolean higherIsBetter;

    Metric(String label, String unit, boolean higherIsBetter) {
        this.label = label;
        this.unit = unit;
        this.higherIsBetter = higherIsBetter;
    }
}
