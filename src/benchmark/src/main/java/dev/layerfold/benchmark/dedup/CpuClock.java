package dev.layerfold.benchmark.dedup;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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

    /** CPU time so far of each live thread whose name starts with {@code prefix}, by thread id. */
    static Map<Long, Long> threadsNamed(String prefix) {
        Map<Long, Long> cpu = new HashMap<>();
        for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
            if (info != null && info.getThreadName().startsWith(prefix)) {
                cpu.put(info.getThreadId(), THREADS.getThreadCpuTime(info.getThreadId()));
            }
        }
        return cpu;
    }

    /** Each thread's CPU time since {@code before} (a {@link #threadsNamed} snapshot), for the threads that have one. */
    static List<Long> since(Map<Long, Long> before, String prefix) {
        List<Long> spent = new ArrayList<>();
        threadsNamed(prefix).forEach((id, now) -> spent.add(now - before.getOrDefault(id, 0L)));
        return spent;
    }
}
