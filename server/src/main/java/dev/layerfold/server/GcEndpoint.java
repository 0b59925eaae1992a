package dev.layerfold.server;

import dev.layerfold.gc.CheckReport;
import dev.layerfold.gc.CollectionReport;
import dev.layerfold.registry.manifest.RetentionReport;
import dev.layerfold.storage.gc.GcIndex;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.stereotype.Component;

/**
 * {@code /actuator/gc}: the garbage collector's state and last run in this process (GET), and a run
 * now (POST {@code {"action": "collect"}}), and a check of the whole registry (POST
 * {@code {"action": "check"}}, with {@code "repair": true} to fix what it can), and the retention
 * policies applied now (POST {@code {"action": "retention"}}, with {@code "dryRun": true} to only report).
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
    Map<String, Object> run(String action, @Nullable Boolean repair, @Nullable Boolean dryRun) throws IOException {
        if ("check".equals(action)) {
            return describe(runs.check(Boolean.TRUE.equals(repair)));
        }
        if ("retention".equals(action)) {
            RetentionReport report = runs.applyRetention(Boolean.TRUE.equals(dryRun));
            return Map.of("dryRun", report.dryRun(), "tags", report.tags(), "manifests", report.manifests(),
                    "bytesFreed", report.bytesFreed());
        }
        if (!"collect".equals(action)) {
            return Map.of("error", "unknown action '" + action + "'; use \"collect\", \"check\" or \"retention\"");
        }
        Optional<CollectionReport> report = runs.runNow();
        return report.<Map<String, Object>>map(GcEndpoint::describe)
                .orElse(Map.of("ran", false, "reason", "another process is collecting (it holds the lease)"));
    }

    static Map<String, Object> describe(CheckReport report) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("repositories", report.repositories());
        body.put("tags", report.tags());
        body.put("manifests", report.manifests());
        body.put("blobs", report.blobs());
        body.put("deduplicatedLayers", report.deduplicatedLayers());
        body.put("files", report.files());
        body.put("problemCount", report.problemCount());
        body.put("repaired", report.repaired());
        body.put("problems", report.problems().stream().map(problem -> {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("kind", problem.kind().name());
            entry.put("repository", problem.repository() == null ? null : problem.repository().value());
            entry.put("digest", problem.digest().toString());
            entry.put("detail", problem.detail());
            entry.put("repaired", problem.repaired());
            return entry;
        }).toList());
        return body;
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
        body.put("orphansNominated", report.orphansNominated());
        body.put("packsRewritten", report.packsRewritten());
        body.put("packBytesReclaimed", report.packBytesReclaimed());
        body.put("retiredPacksDeleted", report.retiredPacksDeleted());
        body.put("stoppedEarly", report.stoppedEarly());
        return body;
    }
}
