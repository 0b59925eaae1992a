package dev.layerfold.registry.catalog;

import dev.layerfold.registry.api.PageRequest;
import dev.layerfold.registry.api.RegistryApiProperties;
import dev.layerfold.registry.api.RegistryRequest;
import dev.layerfold.registry.api.Responses;
import dev.layerfold.registry.api.Route;
import dev.layerfold.registry.api.RouteHandler;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.metadata.MetadataStore;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/** {@code GET /v2/_catalog?n=&last=}: every repository, in lexical order, paged. */
@Component
class CatalogHandler implements RouteHandler<Route.Catalog> {

    private final MetadataStore metadata;
    private final JsonMapper json;
    private final int maxPageSize;

    CatalogHandler(MetadataStore metadata, JsonMapper json, RegistryApiProperties properties) {
        this.metadata = metadata;
        this.json = json;
        this.maxPageSize = properties.maxPageSize();
    }

    @Override
    public Class<Route.Catalog> routeType() {
        return Route.Catalog.class;
    }

    @Override
    public void handle(Route.Catalog route, RegistryRequest request, HttpServletResponse response) throws IOException {
        request.requireMethod("GET", "HEAD");
        PageRequest page = PageRequest.from(request.query(), maxPageSize);
        List<String> fetched = page.fetchSize() == 0 ? List.of()
                : metadata.repositories(page.last().map(RepositoryName::of), page.fetchSize()).stream()
                        .map(RepositoryName::toString).toList();
        byte[] body = json.writeValueAsBytes(Map.of("repositories", page.page(fetched, "/v2/_catalog", response)));
        Responses.body(request, response, HttpStatus.OK, MediaType.APPLICATION_JSON_VALUE, body);
    }
}
