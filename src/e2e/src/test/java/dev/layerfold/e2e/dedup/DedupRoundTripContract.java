package dev.layerfold.e2e.dedup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.e2e.dedup.DedupAdmin.Totals;
import dev.layerfold.e2e.dedup.DistroImages.Image;
import dev.layerfold.e2e.distributed.LayerfoldNodes;
import dev.layerfold.e2e.process.RegistryProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The point of the product, end to end: a realistic set of images (a shared distribution, different
 * package sets, build times and producers) pushed with skopeo and crane, deduplicated, and pulled back
 * with both clients, every blob byte-identical. Each backend's test class extends this with its storage
 * and how many processes share it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class DedupRoundTripContract {

    private static final Duration SETTLE_TIMEOUT = Duration.ofMinutes(3);

    private final ImageClients clients = new ImageClients();
    private LayerfoldNodes nodes;

    /** The storage properties the nodes run with. */
    abstract Map<String, String> backend();

    /**
     * How many processes share the storage, each running a dedup worker: images are pushed through
     * the first (and dedup is settled there) and pulled from the last.
     */
    abstract int nodeCount();

    @BeforeAll
    void startNodes(@TempDir Path data) throws InterruptedException {
        nodes = LayerfoldNodes.start(IntStream.range(0, nodeCount()).mapToObj(i -> data.resolve("node-" + i)).toList(),
                backend());
    }

    @AfterAll
    void stopNodes() throws InterruptedException {
        if (nodes != null) {
            nodes.close();
        }
    }

    private RegistryProcess pushNode() {
        return nodes.get(0).process();
    }

    private RegistryProcess pullNode() {
        return nodes.get(nodes.size() - 1).process();
    }

    @Test
    void sharedDistributionFilesAreStoredOnceAndEveryImagePullsBackByteForByte(@TempDir Path work) throws Exception {
        DistroImages set = DistroImages.write(work.resolve("images"));
        List<Image> images = set.images();
        for (int i = 0; i < images.size(); i++) {
            clients.push(pushNode(), images.get(i), i % 2 == 0);
        }

        Totals totals = DedupAdmin.settle(pushNode().managementUri(), SETTLE_TIMEOUT);

        long logical = set.deduplicatable().stream().mapToLong(DistroImages.Layer::size).sum();
        assertThat(totals.backlog()).isZero();
        assertThat(totals.layersDeduplicated()).as("layers deduplicated: %s", totals).isEqualTo(set.deduplicatable().size());
        assertThat(totals.layersIntact()).as("layers intact, by reason").isEqualTo(set.intactByReason());
        assertThat(totals.logicalBytes()).as("logical bytes of the deduplicated layers").isEqualTo(logical);
        assertThat(totals.uniqueFiles()).as("each distinct file stored once").isEqualTo(set.uniqueFiles().size());
        assertThat(totals.fileReferences()).isEqualTo(set.deduplicatable().stream().mapToLong(layer -> layer.files().size()).sum());
        // Six layers that share three quarters of their files: well under half of their size is stored.
        assertThat(totals.storedBytes()).as("bytes stored for %d logical", logical).isLessThan(logical * 2 / 5);
        System.out.printf("dedup of the distro image set: %d layers deduplicated, %d logical bytes stored as %d (%.1f%%), "
                + "%d unique files of %d references, intact %s%n", totals.layersDeduplicated(), logical,
                totals.storedBytes(), 100.0 * totals.storedBytes() / logical, totals.uniqueFiles(),
                totals.fileReferences(), totals.layersIntact());

        for (Image image : images) {
            clients.assertPullsBackByteForByte(pullNode(), image, work.resolve("pulled"));
        }
    }
}
