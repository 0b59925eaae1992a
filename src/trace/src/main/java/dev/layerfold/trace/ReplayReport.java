package dev.layerfold.trace;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What a replay did, by kind of request: how many, how many failed, bytes received, latency. */
public final class ReplayReport {

    private final Map<String, List<Long>> latencies = new TreeMap<>();
    private final Map<String, Integer> failures = new TreeMap<>();
    private final Map<String, Long> bytes = new TreeMap<>();
    /** The first failures' causes, for a person to act on. */
    private final List<String> problems = new ArrayList<>();
    private int skipped;
    private long maxLateMillis;

    synchronized void done(String kind, long nanos, boolean ok, long received) {
        latencies.computeIfAbsent(kind, k -> new ArrayList<>()).add(nanos);
        bytes.merge(kind, received, Long::sum);
        if (!ok) {
            failures.merge(kind, 1, Integer::sum);
        }
    }

    synchronized void problem(String what) {
        if (problems.size() < 10) {
            problems.add(what);
        }
    }

    public synchronized List<String> problems() {
        return List.copyOf(problems);
    }

    synchronized void skipped() {
        skipped++;
    }

    synchronized void late(long millis) {
        maxLateMillis = Math.max(maxLateMillis, millis);
    }

    /** The {@code q}-quantile (0-1) of the latencies of {@code kind}, in nanoseconds; 0 if none. */
    public synchronized long latencyQuantile(String kind, double q) {
        List<Long> sorted = new ArrayList<>(latencies.getOrDefault(kind, List.of()));
        if (sorted.isEmpty()) {
            return 0;
        }
        Collections.sort(sorted);
        return sorted.get(Math.min(sorted.size() - 1, (int) (sorted.size() * q)));
    }

    /** The kinds of request recorded, e.g. {@code GET blob} and the classes a replay gave its blob GETs. */
    public synchronized List<String> kinds() {
        return List.copyOf(latencies.keySet());
    }

    public synchronized int count(String kind) {
        return latencies.getOrDefault(kind, List.of()).size();
    }

    public synchronized int failures(String kind) {
        return failures.getOrDefault(kind, 0);
    }

    public synchronized int failures() {
        return failures.values().stream().mapToInt(Integer::intValue).sum();
    }

    public synchronized void print(PrintStream out) {
        for (Map.Entry<String, List<Long>> kind : latencies.entrySet()) {
            List<Long> sorted = new ArrayList<>(kind.getValue());
            Collections.sort(sorted);
            out.printf("%-14s %7d requests %5d failed %12d bytes  median %8.2f ms  p95 %8.2f ms%n", kind.getKey(),
                    sorted.size(), failures(kind.getKey()), bytes.getOrDefault(kind.getKey(), 0L),
                    sorted.get(sorted.size() / 2) / 1e6, sorted.get((int) (sorted.size() * 0.95)) / 1e6);
        }
        problems.forEach(problem -> out.println("failed: " + problem));
        out.printf("skipped %d requests of other kinds; at most %d ms behind the trace's timing%n", skipped, maxLateMillis);
    }
}
