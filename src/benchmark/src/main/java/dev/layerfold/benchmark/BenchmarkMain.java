package dev.layerfold.benchmark;

import java.util.Arrays;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Runs the benchmark suites named on the command line ("all" for every one). Suites register
 * through {@code META-INF/services/dev.layerfold.benchmark.Benchmark}.
 */
public final class BenchmarkMain {

    public static void main(String[] args) throws Exception {
        Set<String> wanted = Arrays.stream(args.length == 0 ? new String[] {"all"} : args[0].split(","))
                .map(String::trim).collect(Collectors.toSet());
        List<Benchmark> suites = ServiceLoader.load(Benchmark.class).stream().map(ServiceLoader.Provider::get)
                .filter(b -> wanted.contains("all") || wanted.contains(b.name())).toList();
        if (suites.isEmpty()) {
            System.err.println("no benchmark suite matches " + wanted + "; known: "
                    + ServiceLoader.load(Benchmark.class).stream().map(p -> p.get().name()).toList());
            System.exit(2);
        }
        BenchmarkReport report = new BenchmarkReport(System.out);
        for (Benchmark suite : suites) {
            System.out.println("== " + suite.name());
            suite.run(report);
        }
    }
}
