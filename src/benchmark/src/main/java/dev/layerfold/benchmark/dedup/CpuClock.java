package dev.layerfold.benchmark.dedup;

import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * CPU time of the calling thread: the dedup worker, the split and the encoders measured here each run
 * on the thread that calls them, so their CPU seconds are their cost per core, whatever else the
 * shared machine is running. And CPU time of the whole process, for work spread over threads (a restore).
 */
final class CpuClock {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final OperatingSystemMXBean PROCESS = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private static final Path TASKS = Path.of("/proc/self/task");
    /** CPU time each thread spent in {@link #processNanos}, which the time it returns leaves out. */
    private static final ThreadLocal<long[]> READING = ThreadLocal.withInitial(() -> new long[1]);

    private CpuClock() {
    }

    static long nanos() {
        return THREADS.getCurrentThreadCpuTime();
    }

    /**
     * CPU time of the whole process, threads that ended included, in ticks of 10 ms: for work on native threads that
     * come and go (libzstd's worker threads, one set per compression context), which neither the calling thread's clock
     * nor {@link #processNanos} sees. Only for work of seconds.
     */
    static long processTotalNanos() {
        return PROCESS.getProcessCpuTime();
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

    /**
     * CPU time of every thread of this process (Java, GC and compiler threads), in nanoseconds. On Linux
     * summed from each thread's scheduler statistics, which count nanoseconds: the JDK's process CPU time
     * comes from {@code times()} in ticks of 10 ms, as long as a 1 MB layer's whole restore, so its medians
     * were 20 or 30 ms whatever the restore cost. Threads that ended between two readings drop out, so
     * measure with pools that outlive the work. Elsewhere, the JDK's figure.
     */
    static long processNanos() {
        long start = nanos();
        try (Stream<Path> tasks = Files.list(TASKS)) {
            // A running thread's statistics move on at its next tick or switch, so the calling thread's own
            // time comes from its CPU clock instead, less what reading the others cost it (about 10 µs a thread).
            String self = Path.of("/proc/thread-self").toRealPath().getFileName().toString();
            long others = tasks.filter(task -> !task.getFileName().toString().equals(self)).mapToLong(CpuClock::taskNanos).sum();
            long end = nanos();
            long[] reading = READING.get();
            reading[0] += end - start;
            return others + end - reading[0];
        } catch (IOException e) {
            return PROCESS.getProcessCpuTime();
        }
    }

    /**
     * CPU time so far of every live thread of this process, summed by kind: the thread's name as the
     * kernel keeps it (at most 15 characters) without its trailing number, so the restore's encoder
     * threads, its fetchers, the caller, the collector's and the compiler's threads each come out as
     * one figure. Threads that ended drop out, as in {@link #processNanos}.
     */
    static Map<String, Long> byThreadKind() {
        Map<String, Long> kinds = new HashMap<>();
        try (Stream<Path> tasks = Files.list(TASKS)) {
            tasks.forEach(task -> {
                try {
                    String kind = Files.readString(task.resolve("comm")).strip().replaceAll("[-#]?[0-9]+$", "");
                    kinds.merge(kind, taskNanos(task), Long::sum);
                } catch (NoSuchFileException e) {
                    // the thread ended while the list was read
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return kinds;
    }

    /** Each kind's CPU time between two {@link #byThreadKind} snapshots. */
    static Map<String, Long> since(Map<String, Long> before, Map<String, Long> after) {
        Map<String, Long> spent = new HashMap<>();
        after.forEach((kind, now) -> spent.put(kind, now - before.getOrDefault(kind, 0L)));
        return spent;
    }

    private static long taskNanos(Path task) {
        try {
            String stat = Files.readString(task.resolve("schedstat"));
            return Long.parseLong(stat.substring(0, stat.indexOf(' ')));
        } catch (NoSuchFileException e) {
            return 0; // the thread ended while the list was read
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
