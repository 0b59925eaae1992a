package dev.layerfold.e2e.dedup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.e2e.blob.BlobClient;
import dev.layerfold.e2e.blob.BlobClient.PulledBlob;
import dev.layerfold.e2e.dedup.DedupAdmin.Totals;
import dev.layerfold.e2e.dedup.DistroImages.Image;
import dev.layerfold.e2e.dedup.DistroImages.Layer;
import dev.layerfold.e2e.distributed.LayerfoldNode;
import dev.layerfold.e2e.distributed.LayerfoldNodes;
import dev.layerfold.e2e.process.RegistryProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Registry processes killed with {@code kill -9} in the middle of deduplicating a layer, at a random
 * moment of its pipeline (splitting, packing, writing the record, proving the rebuild, committing,
 * removing the intact blob), and started again on the same storage. After each restart every layer
 * still pulls byte-identical and the killed worker's scratch files are gone; in the end the restarted
 * processes drain the backlog, every layer is deduplicated, and every image pulls back identical.
 *
 * <p>Kill points: a layer is in progress while its pack spool exists in the worker's scratch directory;
 * the kill comes a random delay after the spool appeared, up to about the time one layer takes. The seed
 * is printed; {@code -Dlayerfold.e2e.seed=N} repeats a run's choices (the machine's timing still varies).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class KillDuringDedupContract {

    /** A killed worker's layer and claimed files are taken over in seconds instead of the production minutes. */
    private static final Map<String, String> QUICK_TAKEOVER = Map.of(
            "layerfold.dedup.lease", "6s",
            "layerfold.dedup.claim-time", "10s");
    /**
     * Fewer than the deliveries after which the pipeline gives a layer up (five): even a layer hit by
     * every kill is still deduplicated in the end. Each costs a restart, most of this test's time.
     */
    private static final int KILLS = 3;
    private static final Duration LAYER_START_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration SETTLE_TIMEOUT = Duration.ofMinutes(3);
    /** Where a worker spools the layer it is splitting, and where restores spool the layers they rebuild. */
    private static final String SCRATCH = "scratch/dedup";
    private static final String RESTORE_SCRATCH = "scratch/restore";
    private static final Duration IDLE_WITHIN = Duration.ofSeconds(30);

    private final ImageClients clients = new ImageClients();
    private LayerfoldNodes nodes;
    private DistroImages set;

    /** The storage properties the nodes run with. */
    abstract Map<String, String> backend();

    /** How many processes share the storage (each runs a dedup worker and may be killed). */
    abstract int nodeCount();

    /**
     * About the time one of the set's layers takes on this backend on a busy 2-core machine: kills come
     * up to this long after a layer started, so they reach every step of its pipeline.
     */
    abstract Duration layerTime();

    /** Bytes in the blob store, where the test can count them (the embedded backend's directory). */
    abstract OptionalLong blobStoreBytes(Path dataDir) throws IOException;

    /**
     * The images are pushed to nodes that run no dedup worker, so that the kills meet the whole backlog;
     * then those nodes stop and the nodes under test start on the same storage.
     */
    @BeforeAll
    void pushImagesThenStartTheNodesThatDeduplicate(@TempDir Path data) throws Exception {
        set = DistroImages.layered(data.resolve("images"));
        List<Path> dataDirs = IntStream.range(0, nodeCount()).mapToObj(i -> data.resolve("node-" + i)).toList();
        Map<String, String> storage = backend();
        Map<String, String> apiOnly = new HashMap<>(storage);
        apiOnly.put("layerfold.dedup.workers", "0");
        try (LayerfoldNode pushedTo = LayerfoldNode.start(dataDirs.get(0), apiOnly)) {
            for (Image image : set.images()) {
                clients.push(pushedTo.process(), image, true);
            }
        }
        Map<String, String> deduplicating = new HashMap<>(storage);
        deduplicating.putAll(QUICK_TAKEOVER);
        nodes = LayerfoldNodes.start(dataDirs, deduplicating);
    }

    @AfterAll
    void stopNodes() throws InterruptedException {
        if (nodes != null) {
            nodes.close();
        }
    }

    /**
     * The files left in a scratch directory once nothing writes there. The dedup backlog has settled,
     * but the predictor may still be rebuilding a layer just pulled into its disk tier, through a
     * restore spool file that goes when that rebuild ends: so the directory gets a few seconds to empty.
     */
    private static List<Path> filesOnceIdle(Path scratch) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + IDLE_WITHIN.toNanos();
        while (true) {
            List<Path> left;
            try (Stream<Path> files = Files.list(scratch)) {
                left = files.toList();
            }
            if (left.isEmpty() || System.nanoTime() > deadline) {
                return left;
            }
            Thread.sleep(200);
        }
    }

    /** One kill: which node, how long after its layer's spool appeared, and the scratch files it left. */
    private record Kill(int node, long delayMillis, List<Path> leftovers) {
    }

    @Test
    void killedAtRandomPointsOfDedupEveryLayerStillPullsIdenticalAndTheRestartedNodesSettleTheBacklog(
            @TempDir Path work) throws Exception {
        long seed = Long.getLong("layerfold.e2e.seed", System.nanoTime());
        Random random = new Random(seed);

        List<Kill> kills = new ArrayList<>();
        for (int round = 0; round < KILLS; round++) {
            Optional<Kill> kill = killMidLayer(random);
            if (kill.isEmpty()) {
                break; // every layer was done before another one was seen in progress
            }
            kills.add(kill.get());
            LayerfoldNode killed = nodes.get(kill.get().node());
            killed.restart();
            assertThat(kill.get().leftovers()).as("scratch files of the killed worker, after the restart")
                    .noneMatch(Files::exists);
            assertEveryLayerServed(killed.process());
        }
        assertThat(kills).as("kills in the middle of a layer (seed %d)", seed).isNotEmpty();

        Totals totals = DedupAdmin.settle(nodes.get(0).process().managementUri(), SETTLE_TIMEOUT);
        assertThat(totals.backlog()).isZero();
        assertThat(totals.layersDeduplicated()).as("layers deduplicated after %s (seed %d): %s", kills, seed, totals)
                .isEqualTo(set.layers().size());
        assertThat(totals.layersIntact()).as("layers intact").isEmpty();
        assertThat(totals.uniqueFiles()).as("each distinct file stored once").isEqualTo(set.uniqueFiles().size());
        for (LayerfoldNode node : nodes) {
            for (String scratch : List.of(SCRATCH, RESTORE_SCRATCH)) {
                assertThat(filesOnceIdle(node.process().dataDir().resolve(scratch))).as("files in %s once settled", scratch).isEmpty();
            }
        }
        for (Image image : set.images()) {
            clients.assertPullsBackByteForByte(nodes.get(nodes.size() - 1).process(), image, work);
        }
        report(seed, kills, totals);
    }

    /**
     * Waits until a node is in the middle of a layer, then kills it after a random delay; empty if no
     * layer was seen in progress before the backlog emptied.
     */
    private Optional<Kill> killMidLayer(Random random) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + LAYER_START_TIMEOUT.toNanos();
        long nextBacklogCheck = 0;
        while (System.nanoTime() < deadline) {
            for (int i = 0; i < nodes.size(); i++) {
                Path scratch = nodes.get(i).process().dataDir().resolve(SCRATCH);
                if (layerInProgress(scratch)) {
                    long delay = random.nextLong(layerTime().toMillis());
                    Thread.sleep(delay); // the kill point: a random moment of this layer's pipeline, or a later layer's
                    nodes.get(i).kill();
                    try (Stream<Path> left = Files.list(scratch)) {
                        return Optional.of(new Kill(i, delay, left.toList()));
                    }
                }
            }
            if (System.nanoTime() > nextBacklogCheck) {
                if (DedupAdmin.totals(nodes.get(0).process().managementUri()).backlog() == 0) {
                    return Optional.empty();
                }
                nextBacklogCheck = System.nanoTime() + Duration.ofMillis(250).toNanos();
            }
            Thread.sleep(2);
        }
        throw new AssertionError("no node started a layer within " + LAYER_START_TIMEOUT);
    }

    private static boolean layerInProgress(Path scratch) throws IOException {
        if (!Files.isDirectory(scratch)) {
            return false;
        }
        try (Stream<Path> files = Files.list(scratch)) {
            return files.anyMatch(file -> file.getFileName().toString().endsWith(".spool"));
        }
    }

    /** Every layer, whatever its state (intact, deduplicated, half-way), pulls with its exact size and digest. */
    private void assertEveryLayerServed(RegistryProcess node) throws IOException {
        try (BlobClient client = new BlobClient(node.baseUri())) {
            for (Image image : set.images()) {
                for (Layer layer : image.layers()) {
                    assertThat(client.pull(image.repository(), layer.written().blob().digest()))
                            .as("layer of %s pulled from %s", image.name(), node)
                            .isEqualTo(new PulledBlob(layer.size(), layer.written().blob().digest()));
                }
            }
        }
    }

    /**
     * Prints what the kills cost: bytes in the blob store beyond the images' own configs and manifests and
     * what the totals count as stored (every pack recorded, live or not, and the committed layers' records)
     * are layer records a killed worker wrote that no layer refers to, and blobs of layers kept intact;
     * reclaiming the dead packs and records is the garbage collector's work.
     */
    private void report(long seed, List<Kill> kills, Totals totals) throws IOException, InterruptedException {
        StringBuilder line = new StringBuilder("kill -9 during dedup, seed " + seed + ": ");
        for (Kill kill : kills) {
            line.append(String.format("[node %d, %d ms into a layer, %d scratch files left] ", kill.node(),
                    kill.delayMillis(), kill.leftovers().size()));
        }
        line.append(String.format("; settled: %d layers deduplicated, %d of %d logical bytes stored",
                totals.layersDeduplicated(), totals.storedBytes(), totals.logicalBytes()));
        DedupAdmin.meanSecondsPerLayer(nodes.get(0).process().managementUri())
                .ifPresent(seconds -> line.append(String.format("; %.2f s per layer in the last process", seconds)));
        OptionalLong onDisk = blobStoreBytes(nodes.get(0).process().dataDir());
        if (onDisk.isPresent()) {
            long imageDocuments = 0;
            for (Image image : set.images()) {
                String manifest = image.layout().tagged(DistroImages.TAG).digest();
                for (String blob : image.layout().closure(manifest)) {
                    if (set.layers().stream().noneMatch(layer -> layer.written().blob().digest().equals(blob))) {
                        imageDocuments += image.layout().readBlob(blob).length;
                    }
                }
            }
            line.append(String.format("; blob store %d bytes, of which configs and manifests %d, not counted as stored %d",
                    onDisk.getAsLong(), imageDocuments, onDisk.getAsLong() - imageDocuments - totals.storedBytes()));
        }
        System.out.println(line);
    }
}
