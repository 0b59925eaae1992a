package dev.layerfold.server;

import dev.layerfold.registry.auth.AdminAuthorization;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Guards the management port: health and metrics are open to whoever reaches it (probes and scrapers
 * carry no credentials), every other path (the admin actions, inventory reads, the endpoint list, and
 * anything added later) needs an admin. Unknown paths are refused before they are looked up, so a
 * caller without the grant learns nothing of what the port serves.
 */
final class AdminFilter extends OncePerRequestFilter {

    private static final Logger log = LoggerFactory.getLogger(AdminFilter.class);

    private final AdminAuthorization authorization;
    private final String basePath;

    AdminFilter(AdminAuthorization authorization, String basePath) {
        this.authorization = authorization;
        this.basePath = basePath;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (isOpen(request.getRequestURI())) {
            chain.doFilter(request, response);
            return;
        }
        AdminAuthorization.Decision decision = authorization.decide(request.getHeader("Authorization"), request.getRemoteAddr());
        if (decision.admitted()) {
            if (!request.getMethod().equals("GET")) {
                log.info("admin {} {} by {} from {}", request.getMethod(), request.getRequestURI(), decision.caller(),
                        request.getRemoteAddr());
            }
            chain.doFilter(request, response);
            return;
        }
        decision.headers().forEach(response::setHeader);
        byte[] body = ("{\"errors\":[{\"code\":\"" + code(decision.status())
                + "\",\"message\":\"" + decision.message().replace("\"", "'") + "\",\"detail\":{}}]}").getBytes(StandardCharsets.UTF_8);
        response.setStatus(decision.status());
        response.setContentType("application/json");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }

    private static String code(int status) {
        return switch (status) {
            case 401 -> "UNAUTHORIZED";
            case 429 -> "TOOMANYREQUESTS";
            default -> "DENIED";
        };
    }

    /** Health (with its probe groups) and Prometheus metrics; no other path. */
    private boolean isOpen(String uri) {
        return uri.equals(basePath + "/health") || uri.startsWith(basePath + "/health/") || uri.equals(basePath + "/prometheus");
    }
}
