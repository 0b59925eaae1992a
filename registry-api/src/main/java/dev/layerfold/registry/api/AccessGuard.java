package dev.layerfold.registry.api;

import jakarta.servlet.http.HttpServletResponse;

/**
 * The seam where authentication and authorization meet the API: the {@link RegistryDispatcher} asks
 * it about every request before the handler runs, and tells it about every request that succeeded.
 */
public interface AccessGuard {

    /**
     * Who is calling, once they may call {@code route} with the request's method.
     *
     * @throws dev.layerfold.registry.error.RegistryException UNAUTHORIZED (with a challenge) or DENIED;
     *     never depending on whether the repository exists
     */
    Access admit(Route route, RegistryRequest request);

    /** The handler answered {@code request} without an error; its status and headers are set. */
    void served(Route route, RegistryRequest request, HttpServletResponse response, Access access);
}
