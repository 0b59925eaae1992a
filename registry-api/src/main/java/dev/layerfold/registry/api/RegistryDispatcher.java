package dev.layerfold.registry.api;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.filter.ServerHttpObservationFilter;

/**
 * The single entry point of {@code /v2}: Spring path patterns cannot express repository names with
 * slashes, so the path is parsed by {@link RoutePath} and handed to the handler of its route type.
 */
@Controller
class RegistryDispatcher {

    private final Map<Class<?>, RouteHandler<?>> handlers;
    private final AccessGuard guard;

    RegistryDispatcher(List<RouteHandler<?>> handlers, AccessGuard guard) {
        this.handlers = handlers.stream().collect(Collectors.toUnmodifiableMap(RouteHandler::routeType, Function.identity()));
        this.guard = guard;
    }

    @RequestMapping({"/v2", "/v2/", "/v2/**"})
    void dispatch(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Route route = RoutePath.parse(request.getRequestURI());
        ServerHttpObservationFilter.findObservationContext(request)
                .ifPresent(observation -> observation.setPathPattern(route.pathPattern()));
        RegistryRequest registryRequest = new RegistryRequest(request);
        Access access = guard.admit(route, registryRequest);
        registryRequest.admitted(access);
        dispatch(route, registryRequest, response);
        guard.served(route, registryRequest, response, access);
    }

    @SuppressWarnings("unchecked")
    private <R extends Route> void dispatch(R route, RegistryRequest request, HttpServletResponse response) throws IOException {
        RouteHandler<R> handler = (RouteHandler<R>) handlers.get(route.getClass());
        if (handler == null) {
            throw new IllegalStateException("no handler bean for " + route.getClass().getSimpleName());
        }
        handler.handle(route, request, response);
    }
}
