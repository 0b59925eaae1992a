package dev.layerfold.registry.api;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Serves one kind of {@link Route}. Each capability package contributes its handler as a bean; the
 * {@link RegistryDispatcher} picks it by route type.
 */
public interface RouteHandler<R extends Route> {

    Class<R> routeType();

    /** Handles the request or throws a {@link dev.layerfold.registry.error.RegistryException}. */
    void handle(R route, RegistryRequest request, HttpServletResponse response) throws IOException;
}
