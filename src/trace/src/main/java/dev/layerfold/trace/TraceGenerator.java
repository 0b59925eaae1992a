package dev.layerfold.trace;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;

/**
 * Generates a registry trace with the shape {@link GeneratorSettings} describes: clients pull images
 * (a manifest GET, then GETs of the layers they lack and of some they hold), and repositories get new
 * versions pushed over time. Deterministic for a seed.
 */
public final class TraceGenerator {

    private final GeneratorSettings settings;
    private final SplittableRandom random;
    private final Map<String, SyntheticTrace.Image> images = new LinkedHashMap<>();
    private final List<TraceRecord> records = new ArrayList<>();
    private final SyntheticTrace.Image[] current;
    private final int[] versions;
    private int nextLayer;
    private long uniqueBytes;

    private record Client(String address, double repull, Set<String> layers, List<Integer> repositories) {
    }

    private TraceGenerator(GeneratorSettings settings) {
        this.settings = settings;
        this.random = new SplittableRandom(settings.seed());
        this.current = new SyntheticTrace.Image[settings.repositories()];
        this.versions = new int[settings.repositories()];
    }

    public static SyntheticTrace generate(GeneratorSettings settings) {
        // Pushes are paced to the GET:PUT ratio, which depends on how many GETs a pull makes, and pushes
        // add GETs (new layers to pull): a run without pushes gives a first pace, a second run corrects it.
        SyntheticTrace pullsOnly = new TraceGenerator(settings).run(0);
        double putsPerPush = 2.5; // one or two layers and the manifest
        double pace = gets(pullsOnly) / (settings.getPutRatio() * putsPerPush * settings.duration().toSeconds());
        SyntheticTrace first = new TraceGenerator(settings).run(pace);
        double ratio = gets(first) / (double) Math.max(1, first.records().size() - gets(first));
        return new TraceGenerator(settings).run(pace * ratio / settings.getPutRatio());
    }

    private static long gets(SyntheticTrace trace) {
        return trace.records().stream().filter(TraceRecord::isGet).count();
    }

    private SyntheticTrace run(double pushesPerSecond) {
        List<SyntheticTrace.Layer>[] baseLayers = bases();
        for (int r = 0; r < settings.repositories(); r++) {
            List<SyntheticTrace.Layer> layers = new ArrayList<>(baseLayers[random.nextInt(baseLayers.length)]);
            int own = 1 + random.nextInt(settings.ownLayersMax());
            for (int i = 0; i < own; i++) {
                layers.add(newLayer());
            }
            publish(r, layers);
        }
        List<Client> clients = new ArrayList<>();
        for (int c = 0; c < settings.clients(); c++) {
            boolean pullOnce = random.nextDouble() < settings.pullOnceShare();
            clients.add(new Client("10." + (c >> 16 & 255) + "." + (c >> 8 & 255) + "." + (c & 255) + ":" + (30000 + c),
                    pullOnce ? settings.pullOnceRepull() : settings.alwaysPullRepull(), new HashSet<>(), new ArrayList<>()));
        }
        Zipf repositories = new Zipf(settings.repositories(), settings.popularitySkew());
        Zipf activity = new Zipf(settings.clients(), settings.clientSkew());
        double end = settings.duration().toMillis() / 1000.0;
        double nextPull = exponential(settings.pullsPerSecond());
        double nextPush = pushesPerSecond > 0 ? exponential(pushesPerSecond) : Double.MAX_VALUE;
        while (Math.min(nextPull, nextPush) < end) {
            if (nextPull <= nextPush) {
                pull(clients.get(activity.next(random)), repositories, nextPull);
                nextPull += exponential(settings.pullsPerSecond());
            } else {
                push(repositories.next(random), nextPush);
                nextPush += exponential(pushesPerSecond);
            }
        }
        records.sort(Comparator.comparing(TraceRecord::timestamp));
        return new SyntheticTrace(List.copyOf(records), Map.copyOf(images), uniqueBytes);
    }

    @SuppressWarnings("unchecked")
    private List<SyntheticTrace.Layer>[] bases() {
        List<SyntheticTrace.Layer>[] bases = new List[settings.bases()];
        for (int b = 0; b < bases.length; b++) {
            bases[b] = new ArrayList<>();
            for (int i = 0, n = 1 + random.nextInt(3); i < n; i++) {
                bases[b].add(newLayer());
            }
        }
        return bases;
    }

    private SyntheticTrace.Image publish(int repository, List<SyntheticTrace.Layer> layers) {
        versions[repository]++;
        SyntheticTrace.Image image = new SyntheticTrace.Image("lib/repo-" + repository, "v" + versions[repository],
                List.copyOf(layers));
        current[repository] = image;
        images.put(image.reference(), image);
        return image;
    }

    private void pull(Client client, Zipf repositories, double at) {
        boolean again = !client.repositories().isEmpty() && random.nextDouble() < settings.revisit();
        int repository = again ? client.repositories().get(random.nextInt(client.repositories().size()))
                : repositories.next(random);
        if (!again) {
            client.repositories().add(repository);
        }
        SyntheticTrace.Image image = current[repository];
        records.add(new TraceRecord("GET", "/v2/" + image.repository() + "/manifests/" + image.tag(), client.address(),
                300 + 180L * image.layers().size(), instant(at)));
        for (SyntheticTrace.Layer layer : image.layers()) {
            boolean held = client.layers().contains(layer.digest());
            if (!held || random.nextDouble() < client.repull()) {
                double delay = settings.layerDelayMin() + random.nextDouble() * settings.layerDelaySpread();
                records.add(new TraceRecord("GET", "/v2/" + image.repository() + "/blobs/" + layer.digest(),
                        client.address(), layer.size(), instant(at + delay)));
                client.layers().add(layer.digest());
            }
        }
    }

    private void push(int repository, double at) {
        List<SyntheticTrace.Layer> layers = new ArrayList<>(current[repository].layers());
        int changed = Math.min(1 + random.nextInt(2), layers.size());
        String pusher = "172.16." + (repository >> 8 & 255) + "." + (repository & 255) + ":40000";
        double time = at;
        for (int i = layers.size() - changed; i < layers.size(); i++) {
            SyntheticTrace.Layer layer = newLayer();
            layers.set(i, layer);
            records.add(new TraceRecord("PUT", "/v2/lib/repo-" + repository + "/blobs/uploads/"
                    + UUID.nameUUIDFromBytes(layer.digest().getBytes(StandardCharsets.UTF_8)) + "?digest=" + layer.digest(),
                    pusher, layer.size(), instant(time)));
            time += 0.5;
        }
        SyntheticTrace.Image image = publish(repository, layers);
        records.add(new TraceRecord("PUT", "/v2/" + image.repository() + "/manifests/" + image.tag(), pusher,
                300 + 180L * layers.size(), instant(time)));
    }

    private SyntheticTrace.Layer newLayer() {
        double size = settings.layerSizeMedian() * Math.exp(settings.layerSizeSigma() * random.nextGaussian());
        long bytes = (long) Math.max(1024, Math.min(settings.layerSizeMax(), size));
        uniqueBytes += bytes;
        return new SyntheticTrace.Layer(digestOf(settings.seed() + ":layer:" + nextLayer++), bytes);
    }

    private double exponential(double rate) {
        return -Math.log(1 - random.nextDouble()) / rate;
    }

    private Instant instant(double seconds) {
        return settings.start().plusNanos((long) (seconds * 1e9));
    }

    private static String digestOf(String text) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return "sha256:" + HexFormat.of().formatHex(hash);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java runtime", e);
        }
    }
}
