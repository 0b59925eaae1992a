package dev.layerfold.registry.auth;

import dev.layerfold.registry.api.Access;
import dev.layerfold.registry.api.RegistryRequest;
import dev.layerfold.registry.api.Route;
import jakarta.servlet.http.HttpServletResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * Every push, tag and delete with who did it, on the logger {@code layerfold.audit}: one line per
 * change, its fields as {@code key=value} in the message (for plain logs) and as key-value pairs of the
 * event (which structured logging, {@code logging.structured.format.console=ecs}, writes as JSON fields),
 * so an operator can route the logger to its own sink and ship it.
 */
final class AuditLog {

    private static final Logger log = LoggerFactory.getLogger("layerfold.audit");

    void served(Route route, RegistryRequest request, HttpServletResponse response, Access access) {
        int status = response.getStatus();
        if (status != 201 && status != 202) {
            return;
        }
        String digest = response.getHeader("Docker-Content-Digest");
        switch (route) {
            case Route.Manifest manifest when request.method().equals("PUT") -> {
                List<String> tags = new ArrayList<>(response.getHeaders("OCI-Tag"));
                if (!manifest.reference().contains(":")) {
                    tags.addFirst(manifest.reference());
                }
                record(access, request, "push-manifest", manifest.name().value(), digest, Map.of("tags", String.join(",", tags)));
            }
            case Route.Manifest manifest when request.method().equals("DELETE") ->
                    record(access, request, manifest.reference().contains(":") ? "delete-manifest" : "delete-tag",
                            manifest.name().value(), manifest.reference(), Map.of());
            case Route.Blob blob when request.method().equals("DELETE") ->
                    record(access, request, "delete-blob", blob.name().value(), blob.digest().toString(), Map.of());
            case Route.UploadStart start when status == 201 ->
                    record(access, request, request.query().first("mount").isPresent() && request.query().first("digest").isEmpty()
                            ? "mount-blob" : "push-blob", start.name().value(), digest, Map.of());
            case Route.Upload upload when status == 201 ->
                    record(access, request, "push-blob", upload.name().value(), digest, Map.of());
            default -> {
            }
        }
    }

    private static void record(Access access, RegistryRequest request, String action, String repository, String target,
                               Map<String, String> extra) {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("action", action);
        fields.put("repository", repository);
        fields.put("target", target == null ? "" : target);
        fields.putAll(extra);
        fields.put("caller", access.caller());
        fields.put("address", request.remoteAddress());
        LoggingEventBuilder event = log.atInfo();
        fields.forEach(event::addKeyValue);
        event.log(fields.entrySet().stream().map(field -> field.getKey() + "=" + field.getValue())
                .collect(Collectors.joining(" ")));
    }
}
