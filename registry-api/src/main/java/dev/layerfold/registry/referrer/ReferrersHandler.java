package dev.layerfold.registry.referrer;

import dev.layerfold.registry.api.PageRequest;
import dev.layerfold.registry.api.RegistryApiProperties;
import dev.layerfold.registry.api.RegistryRequest;
import dev.layerfold.registry.api.Responses;
import dev.layerfold.registry.api.Route;
import dev.layerfold.registry.api.RouteHandler;
import dev.layerfold.storage.metadata.Descriptor;
import dev.layerfold.storage.metadata.MetadataStore;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code GET /v2/<name>/referrers/<digest>?artifactType=}: the manifests whose {@code subject} is the
 * digest, as an OCI image index, in digest order and paged with {@code n}, {@code last} and a
 * {@code Link} header as tag lists are. The spec forbids a 404 here: an unknown subject (or
 * repository) has no referrers, which is an empty index.
 */
@Component
class ReferrersHandler implements RouteHandler<Route.Referrers> {

    private static final String OCI_INDEX = "application/vnd.oci.image.index.v1+json";

    private final MetadataStore metadata;
    private final JsonMapper json;
    private final int maxPageSize;

    ReferrersHandler(MetadataStore metadata, JsonMapper json, RegistryApiProperties properties) {
        this.metadata = metadata;
        this.json = json;
        this.maxPageSize = properties.maxPageSize();
    }

    @Override
    public Class<Route.Referrers> routeType() {
        return Route.Referrers.class;
    }

    @Override
    public void handle(Route.Referrers route, RegistryRequest request, HttpServletResponse response) throws IOException {
        request.requireMethod("GET", "HEAD");
        Optional<String> artifactType = request.query().first("artifactType").filter(type -> !type.isEmpty());
        PageRequest page = PageRequest.from(request.query(), maxPageSize);
        List<Descriptor> after = metadata.referrers(route.name(), route.subject()).stream()
                .filter(referrer -> artifactType.isEmpty() || artifactType.get().equals(referrer.artifactType()))
                .sorted(Comparator.comparing(referrer -> referrer.digest().toString()))
                .filter(referrer -> page.last().isEmpty() || referrer.digest().toString().compareTo(page.last().get()) > 0)
                .limit(page.fetchSize())
                .toList();
        String path = "/v2/" + route.name() + "/referrers/" + route.subject()
                + artifactType.map(type -> "?artifactType=" + URLEncoder.encode(type, StandardCharsets.UTF_8)).orElse("");
        List<Map<String, Object>> manifests = page.page(after, referrer -> referrer.digest().toString(), path, response).stream()
                .map(ReferrersHandler::toJson)
                .toList();
        if (artifactType.isPresent()) {
            response.setHeader("OCI-Filters-Applied", "artifactType");
        }
        Map<String, Object> index = new LinkedHashMap<>();
        index.put("schemaVersion", 2);
        index.put("mediaType", OCI_INDEX);
        index.put("manifests", manifests);
        Responses.body(request, response, HttpStatus.OK, OCI_INDEX, json.writeValueAsBytes(index));
    }

    private static Map<String, Object> toJson(Descriptor referrer) {
        Map<String, Object> descriptor = new LinkedHashMap<>();
        descriptor.put("mediaType", referrer.mediaType());
        descriptor.put("digest", referrer.digest().toString());
        descriptor.put("size", referrer.size());
        if (referrer.artifactType() != null) {
            descriptor.put("artifactType", referrer.artifactType());
        }
        if (!referrer.annotations().isEmpty()) {
            descriptor.put("annotations", referrer.annotations());
        }
        return descriptor;
    }
}
