package dev.layerfold.server;

import dev.layerfold.storage.gc.CollectionReport;
import dev.layerfold.storage.gc.GcIndex;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.stereotype.Component;

/**
 * {@code /actuator/gc}: the garbage collector's state and last run in this process (GET), and a run
 * now (POST {@code {"action": "collect"}}).
 */
@Component
@Endpoint(id = "gc")
class GcEndpoint {

    private final GcRuns runs;
    private final GcIndex index;

    GcEndpoint(GcRuns runs, GcIndex index) {
        this.runs = runs;
        this.index = index;
    }

    @ReadOperation
    Map<String, Object> state() throws IOException {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("indexCompleteSinceMillis", index.completeSince().orElse(null));
        body.put("lastRun", runs.lastRun().map(GcEndpoint::describe).orElse(null));
        return body;
    }

    @WriteOperation
    Map<String, Object> run(String action) throws IOException {
        if (!"collect".equals(action)) {
            return Map.of("error", "unknown action '" + action + "'; use \"collect\"");
        }
        Optional<CollectionReport> report = runs.runNow();
        return report.<Map<String, Object>>map(GcEndpoint::describe)
                .orElse(Map.of("ran", false, "reason", "another process is collecting (it holds the lease)"));
    }

    static Map<String, Object> describe(CollectionReport report) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("ran", true);
        body.put("started", report.started().toString());
        body.put("finished", report.finished().toString());
        body.put("rebuiltReferences", report.rebuiltReferences());
        body.put("judged", report.judged());
        body.put("blobsRemoved", report.blobsRemoved());
        body.put("bytesReclaimed", report.bytesReclaimed());
        body.put("layersReleased", report.layersReleased());
        body.put("filesForgotten", report.filesForgotten());
        body.put("packBytesFreed", report.packBytesFreed());
        body.put("stoppedEarly", report.stoppedEarly());
        return body;
    }
}
