package dev.layerfold.registry.catalog;

import dev.layerfold.registry.api.Access;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code GET /v2/_catalog?n=&last=}: every repository the caller may pull from, in lexical order,
 * paged. Repositories the caller may not pull are skipped as if absent.
 */
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
        List<String> fetched = page.fetchSize() == 0 ? List.of() : readable(request.access(), page);
        byte[] body = json.writeValueAsBytes(Map.of("repositories", page.page(fetched, "/v2/_catalog", response)));
        Responses.body(request, response, HttpStatus.OK, MediaType.APPLICATION_JSON_VALUE, body);
    }

    /** Up to {@code page.fetchSize()} repositories after {@code last} that the caller may pull. */
    private List<String> readable(Access access, PageRequest page) throws IOException {
        List<String> readable = new ArrayList<>();
        Optional<RepositoryName> after = page.last().map(RepositoryName::of);
        while (readable.size() < page.fetchSize()) {
            List<RepositoryName> batch = metadata.repositories(after, page.fetchSize());
            for (RepositoryName repository : batch) {
                if (access.mayPull(repository) && readable.size() < page.fetchSize()) {
                    readable.add(repository.toString());
                }
            }
            if (batch.size() < page.fetchSize()) {
                break;
            }
            after = Optional.of(batch.getLast());
        }
        return readable;
    }
}
