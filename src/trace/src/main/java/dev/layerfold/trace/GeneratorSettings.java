package dev.layerfold.trace;

import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The shape of a synthetic trace. Each component is a flag of the {@code generate} command
 * ({@code --pullsPerSecond=5}); the defaults and where they come from:
 *
 * @param seed the random seed; the same settings and seed give the same trace
 * @param start the first request's time
 * @param duration how long the trace runs (2 hours)
 * @param pullsPerSecond image pulls started per second, each a manifest GET and the layer GETs that follow
 * @param repositories repositories, each an image with versions (300)
 * @param bases base images whose layers the repositories share (20; Docker Hub images mostly build
 *     on a few official bases: Zhao et al., "Large-scale analysis of the Docker Hub dataset", CLUSTER '19)
 * @param clients clients pulling (500), each a distinct address
 * @param popularitySkew Zipf exponent of repository popularity (1.0: the IBM traces' pulls are heavily
 *     skewed towards few repositories, Anwar et al., FAST '18, §4)
 * @param clientSkew Zipf exponent of how active clients are (0.8: a few clients, such as CI systems and
 *     clusters, send most requests, same source)
 * @param revisit share of pulls of an image the client pulled before (0.95: "many pulls by clients that
 *     already hold the image"; most pulls of the IBM traces fetch the manifest only, Anwar et al. §4)
 * @param pullOnceShare share of clients that pull a layer they hold only rarely (0.85: DupHunter Fig. 2,
 *     most clients repull rarely, some nearly always; with {@code revisit} this makes about half the
 *     requests manifest GETs)
 * @param pullOnceRepull how often a pull-once client pulls a held layer again (0.02)
 * @param alwaysPullRepull how often an always-pull client does (0.7; Kubernetes' {@code imagePullPolicy: Always})
 * @param layerSizeMedian median layer size in bytes (1.5 MB; lognormal with {@code layerSizeSigma} 1.8,
 *     so about 85% of layers are under 10 MB with a long tail, as the Docker Hub analyses report)
 * @param layerSizeSigma the lognormal's sigma
 * @param layerSizeMax the largest layer (1 GB)
 * @param ownLayersMax most layers an image has on top of its base's (6; one to this many, uniformly)
 * @param layerDelayMin seconds from a manifest GET to its first layer GET (1.0; DupHunter Fig. 3: most
 *     intervals exceed one second)
 * @param layerDelaySpread the layer GETs of one pull spread over this many seconds more (1.0)
 * @param getPutRatio GET requests per PUT request (24: the figure for the IBM traces; pushes
 *     are paced to meet it, each a new version of a repository with one or two layers changed)
 */
public record GeneratorSettings(long seed, Instant start, Duration duration, double pullsPerSecond, int repositories,
                                int bases, int clients, double popularitySkew, double clientSkew, double revisit,
                                double pullOnceShare, double pullOnceRepull, double alwaysPullRepull, long layerSizeMedian,
                                double layerSizeSigma, long layerSizeMax, int ownLayersMax, double layerDelayMin,
                                double layerDelaySpread, double getPutRatio) {

    public static final GeneratorSettings DEFAULTS = new GeneratorSettings(1, Instant.parse("2026-01-05T08:00:00Z"),
            Duration.ofHours(2), 2.0, 300, 20, 500, 1.0, 0.8, 0.95, 0.85, 0.02, 0.7, 1_500_000, 1.8, 1_000_000_000L, 6,
            1.0, 1.0, 24);

    /**
     * These settings with each flag replacing the component of its name ({@code seed=2},
     * {@code duration=PT30M}); an unknown name is refused with the list of known ones.
     */
    public GeneratorSettings with(Map<String, String> flags) {
        Map<String, String> left = new HashMap<>(flags);
        RecordComponent[] components = GeneratorSettings.class.getRecordComponents();
        Object[] values = new Object[components.length];
        Class<?>[] types = new Class<?>[components.length];
        try {
            for (int i = 0; i < components.length; i++) {
                types[i] = components[i].getType();
                String flag = left.remove(components[i].getName());
                values[i] = flag == null ? components[i].getAccessor().invoke(this) : parse(flag, types[i]);
            }
            if (!left.isEmpty()) {
                throw new IllegalArgumentException("unknown settings " + left.keySet() + "; known: "
                        + Arrays.stream(components).map(RecordComponent::getName).toList());
            }
            return GeneratorSettings.class.getDeclaredConstructor(types).newInstance(values);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot build settings from " + flags, e);
        }
    }

    private static Object parse(String value, Class<?> type) {
        if (type == long.class) {
            return Long.parseLong(value);
        } else if (type == int.class) {
            return Integer.parseInt(value);
        } else if (type == double.class) {
            return Double.parseDouble(value);
        } else if (type == Duration.class) {
            return Duration.parse(value);
        } else if (type == Instant.class) {
            return Instant.parse(value);
        }
        throw new IllegalArgumentException("no parser for " + type);
    }
}
