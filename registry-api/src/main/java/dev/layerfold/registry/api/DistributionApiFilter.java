package dev.layerfold.registry.api;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Stamps every response with {@code Docker-Distribution-API-Version}, which Docker clients check, and
 * turns away {@code /v2/} paths whose dot segments would lead the servlet container outside
 * {@code /v2} (such as {@code /v2/..%2f..}) before they can reach another endpoint.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
class DistributionApiFilter extends OncePerRequestFilter {

    static final String API_VERSION_HEADER = "Docker-Distribution-API-Version";

    private static final byte[] ESCAPING_PATH = ("{\"errors\":[{\"code\":\"NAME_INVALID\",\"message\":"
            + "\"the path leaves /v2 through '.' or '..' segments; repository names are lower-case path"
            + " components of [a-z0-9] joined by '.', '_', '__' or '-'\",\"detail\":{}}]}").getBytes(StandardCharsets.UTF_8);

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        response.setHeader(API_VERSION_HEADER, "registry/2.0");
        String normalized = request.getServletPath() + (request.getPathInfo() == null ? "" : request.getPathInfo());
        if (request.getRequestURI().startsWith("/v2/") && !normalized.equals("/v2") && !normalized.startsWith("/v2/")) {
            response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
            response.setContentType("application/json");
            response.setContentLength(ESCAPING_PATH.length);
            response.getOutputStream().write(ESCAPING_PATH);
            return;
        }
        chain.doFilter(request, response);
    }
}
