package dev.layerfold.server;

import dev.layerfold.dedup.pipeline.DedupWorker;
import dev.layerfold.registry.manifest.DedupBackfill;
import dev.layerfold.storage.dedup.DedupStorage;
import dev.layerfold.storage.dedup.DedupTotals;
import dev.layerfold.storage.metadata.MetadataStore;
import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.stereotype.Component;

/**
 * {@code /actuator/dedup}: what deduplication achieved (GET), and a call that waits until every layer
 * queued so far was decided (POST, {@code {"timeoutSeconds": 60}}), so that tests, benchmarks and
 * operators can measure the settled state.
 */
@Component
@Endpoint(id = "dedup")
class DedupEndpoint {

    private final DedupStorage dedup;
    private final ObjectProvider<DedupWorker> worker;
    private final DedupBackfill backfill;

    DedupEndpoint(MetadataStore metadata, ObjectProvider<DedupWorker> worker, DedupBackfill backfill) {
        this.dedup = DedupConfiguration.storage(metadata);
        this.worker = worker;
        this.backfill = backfill;
    }

    /** Read afresh from the shared index and queue (the metrics keep a copy a few seconds old). */
    @ReadOperation
    Map<String, Object> totals() throws IOException {
        DedupTotals totals = dedup.dedupIndex().totals();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("backlog", dedup.dedupQueue().backlog());
        body.put("layersDeduplicated", totals.layersDeduplicated());
        body.put("layersIntact", totals.intactByReason());
        body.put("logicalBytes", totals.logicalBytes());
        body.put("storedBytes", totals.storedBytes());
        body.put("savedBytes", totals.logicalBytes() - totals.storedBytes());
        body.put("fileReferences", totals.fileReferences());
        body.put("uniqueFiles", totals.uniqueFiles());
        return body;
    }

    /** Waits for an empty backlog; answers {@code settled: false} if it was not empty within the timeout. */
    @WriteOperation
    Map<String, Object> settle(Integer timeoutSeconds) throws IOException, InterruptedException {
        DedupWorker running = worker.getIfAvailable();
        if (running == null) {
            return Map.of("settled", false, "reason", "no dedup worker runs in this process");
        }
        boolean settled = running.awaitIdle(Duration.ofSeconds(timeoutSeconds == null ? 60 : timeoutSeconds));
        return Map.of("settled", settled, "totals", totals());
    }

    /**
     * {@code POST /actuator/dedup/backfill}: queues the layers of every manifest that have no dedup outcome
     * and are intact (pushed while dedup was off, or queued in a Redis that lost them).
     */
    @WriteOperation
    Map<String, Object> run(@Selector String action) throws IOException {
        if (!action.equals("backfill")) {
            throw new IllegalArgumentException("unknown action '" + action + "'; the one action is backfill");
        }
        DedupBackfill.Pass pass = backfill.run();
        return Map.of("manifests", pass.manifests(), "layersQueued", pass.layersQueued(), "backlog", dedup.dedupQueue().backlog());
    }
}
