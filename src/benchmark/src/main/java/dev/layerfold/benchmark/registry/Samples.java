package dev.layerfold.benchmark.registry;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** The measurements one registry collected, per metric, across rounds. */
final class Samples {

    private final Map<Metric, List<Double>> values = new EnumMap<>(Metric.class);

    void add(Metric metric, double value) {
        values.computeIfAbsent(metric, m -> new ArrayList<>()).add(value);
    }

    double[] of(Metric metric) {
        return values.getOrDefault(metric, List.of()).stream().mapToDouble(Double::doubleValue).toArray();
    }
}
