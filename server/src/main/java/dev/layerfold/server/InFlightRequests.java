package dev.layerfold.server;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Counts the distribution API requests being served, so background work (deduplication) can yield
 * to clients: Sift's load awareness, measured where the load arrives.
 */
final class InFlightRequests extends OncePerRequestFilter {

    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile long lastEndedNanos = System.nanoTime() - Long.MAX_VALUE / 2;

    int count() {
        return inFlight.get();
    }

    /** Whether at least {@code threshold} requests are in flight, or one ended less than {@code quietNanos} ago. */
    boolean busy(int threshold, long quietNanos) {
        return inFlight.get() >= threshold || System.nanoTime() - lastEndedNanos < quietNanos;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !request.getRequestURI().startsWith("/v2/");
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        inFlight.incrementAndGet();
        try {
            chain.doFilter(request, response);
        } finally {
            lastEndedNanos = System.nanoTime();
            inFlight.decrementAndGet();
        }
    }
}
