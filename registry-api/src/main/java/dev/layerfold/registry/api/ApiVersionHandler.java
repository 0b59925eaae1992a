package dev.layerfold.registry.api;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;

/** {@code GET /v2/}: tells clients this is a registry speaking the distribution API. */
@Component
class ApiVersionHandler implements RouteHandler<Route.Base> {

    private static final byte[] EMPTY_OBJECT = "{}".getBytes(StandardCharsets.UTF_8);

    @Override
    public Class<Route.Base> routeType() {
        return Route.Base.class;
    }

    @Override
    public void handle(Route.Base route, RegistryRequest request, HttpServletResponse response) throws IOException {
        request.requireMethod("GET", "HEAD");
        Responses.body(request, response, HttpStatus.OK, MediaType.APPLICATION_JSON_VALUE, EMPTY_OBJECT);
    }
}
