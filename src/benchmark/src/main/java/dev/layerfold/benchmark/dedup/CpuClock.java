package dev.layerfold.benchmark.dedup;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * CPU time of the calling thread: the dedup worker, the split and the encoders measured here each run
 * on the thread that calls them, so their CPU seconds are their cost per core, whatever else the
 * shared machine is running.
 */
final class CpuClock {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private CpuClock() {
    }

    static long nanos() {
        return THREADS.getCurrentThreadCpuTime();
    }
}
