package dev.layerfold.registry.tag;

import dev.layerfold.registry.api.PageRequest;
import dev.layerfold.registry.api.RegistryApiProperties;
import dev.layerfold.registry.api.RegistryRequest;
import dev.layerfold.registry.api.Responses;
import dev.layerfold.registry.api.Route;
import dev.layerfold.registry.api.RouteHandler;
import dev.layerfold.registry.error.ErrorCode;
import dev.layerfold.registry.error.RegistryException;
import dev.layerfold.storage.metadata.MetadataStore;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/** {@code GET /v2/<name>/tags/list?n=&last=}: the repository's tags in lexical order, paged. */
@Component
class TagListHandler implements RouteHandler<Route.TagList> {

    private final MetadataStore metadata;
    private final JsonMapper json;
    private final int maxPageSize;

    TagListHandler(MetadataStore metadata, JsonMapper json, RegistryApiProperties properties) {
        this.metadata = metadata;
        this.json = json;
        this.maxPageSize = properties.maxPageSize();
    }

    @Override
    public Class<Route.TagList> routeType() {
        return Route.TagList.class;
    }

    @Override
    public void handle(Route.TagList route, RegistryRequest request, HttpServletResponse response) throws IOException {
        request.requireMethod("GET", "HEAD");
        if (!metadata.repositoryExists(route.name())) {
            throw RegistryException.of(ErrorCode.NAME_UNKNOWN, "repository " + route.name() + " does not exist",
                    Map.of("name", route.name().toString()));
        }
        PageRequest page = PageRequest.from(request.query(), maxPageSize);
        List<String> fetched = page.fetchSize() == 0 ? List.of() : metadata.tags(route.name(), page.last(), page.fetchSize());
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", route.name().toString());
        body.put("tags", page.page(fetched, "/v2/" + route.name() + "/tags/list", response));
        Responses.body(request, response, HttpStatus.OK, MediaType.APPLICATION_JSON_VALUE, json.writeValueAsBytes(body));
    }
}
