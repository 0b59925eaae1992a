package dev.layerfold.server;

import dev.layerfold.registry.mirror.MirrorRun;
import dev.layerfold.registry.mirror.Mirrors;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.stereotype.Component;

/**
 * {@code GET /actuator/mirror}: each mirror rule and what its last run in this process did (the
 * counters are in the metrics). Read-only; on the management port, for admins only.
 */
@Component
@Endpoint(id = "mirror")
class MirrorEndpoint {

    private final Mirrors mirrors;

    MirrorEndpoint(Mirrors mirrors) {
        this.mirrors = mirrors;
    }

    @ReadOperation
    Map<String, Object> rules() {
        List<Map<String, Object>> rules = mirrors.status().stream().map(status -> {
            Map<String, Object> rule = new LinkedHashMap<>();
            rule.put("name", status.rule().name());
            rule.put("upstream", status.rule().upstream());
            rule.put("repository", status.rule().repository());
            rule.put("tags", status.rule().tags());
            rule.put("semver", status.rule().semver());
            rule.put("platforms", status.rule().platforms());
            rule.put("interval", status.rule().interval().toString());
            status.lastRun().ifPresent(run -> rule.put("lastRun", run(run)));
            return rule;
        }).toList();
        return Map.of("rules", rules);
    }

    private static Map<String, Object> run(MirrorRun run) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("started", run.started().toString());
        body.put("finished", run.finished().toString());
        body.put("repositoriesSelected", run.repositoriesSelected());
        body.put("tagsSelected", run.tagsSelected());
        body.put("tagsMirrored", run.tagsMirrored());
        body.put("failures", run.failures());
        body.put("error", run.error());
        return body;
    }
}
