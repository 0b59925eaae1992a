package dev.layerfold.registry.api;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.springframework.core.task.AsyncTaskExecutor;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.context.request.async.WebAsyncTask;
import org.springframework.web.filter.ServerHttpObservationFilter;

/**
 * The single entry point of {@code /v2}: Spring path patterns cannot express repository names with
 * slashes, so the path is parsed by {@link RoutePath} and handed to the handler of its route type.
 *
 * <p>A request that carries a body is handled on a virtual thread (Servlet async), not on one of
 * Tomcat's request threads: a client may send its body as slowly as it likes, and a few hundred doing so
 * would otherwise hold every request thread and stop the registry for everyone. Each such request
 * reserves {@link MemoryBudget#WAITER_HEAP} from the {@link MemoryBudget} before it starts (waiting, or 429
 * once the budget stays full), for what it holds besides its data: the virtual thread's stack and the
 * request's objects; its data buffers are reserved where they are allocated. Requests without a body
 * (pulls) stay on Tomcat's platform threads, which serve them with less CPU.
 */
@Controller
class RegistryDispatcher {

    /** No time limit on the handling of a body: a push of many GB takes long; stalled reads time out. */
    private static final long NO_TIMEOUT = 0;

    private final Map<Class<?>, RouteHandler<?>> handlers;
    private final MemoryBudget memory;
    private final AsyncTaskExecutor bodyReaders = virtualThreads();
    private final AccessGuard guard;

    RegistryDispatcher(List<RouteHandler<?>> handlers, MemoryBudget memory, AccessGuard guard) {
        this.handlers = handlers.stream().collect(Collectors.toUnmodifiableMap(RouteHandler::routeType, Function.identity()));
        this.memory = memory;
        this.guard = guard;
    }

    @RequestMapping({"/v2", "/v2/", "/v2/**"})
    WebAsyncTask<HttpHeaders> dispatch(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Route route = RoutePath.parse(request.getRequestURI());
        request.setAttribute(RouteObservationConvention.ROUTE, route.pathPattern());
        ServerHttpObservationFilter.findObservationContext(request)
                .ifPresent(observation -> observation.setPathPattern(route.pathPattern()));
        RegistryRequest registryRequest = new RegistryRequest(request);
        Access access = guard.admit(route, registryRequest);
        registryRequest.admitted(access);
        if (!registryRequest.hasBody()) {
            serve(route, registryRequest, response, access);
            return null;
        }
        return new WebAsyncTask<>(NO_TIMEOUT, bodyReaders, () -> {
            try (MemoryBudget.Reservation held = memory.reserve(MemoryBudget.WAITER_HEAP)) {
                serve(route, registryRequest, response, access);
            }
            // The handler wrote the response; no headers to add tells Spring so (a null would make it
            // look for a view to render).
            return HttpHeaders.EMPTY;
        });
    }

    /** Handles an admitted request, then lets the guard record what it changed (the audit log). */
    private void serve(Route route, RegistryRequest request, HttpServletResponse response, Access access) throws IOException {
        dispatch(route, request, response);
        guard.served(route, request, response, access);
    }

    private static AsyncTaskExecutor virtualThreads() {
        SimpleAsyncTaskExecutor executor = new SimpleAsyncTaskExecutor("request-body-");
        executor.setVirtualThreads(true);
        return executor;
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
