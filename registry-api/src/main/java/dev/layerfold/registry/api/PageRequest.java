package dev.layerfold.registry.api;

import dev.layerfold.registry.error.ErrorCode;
import dev.layerfold.registry.error.RegistryException;
import jakarta.servlet.http.HttpServletResponse;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.springframework.http.HttpStatus;

/**
 * The {@code n} and {@code last} parameters of the tag list, the catalog and the referrers list. Stores are asked for one
 * entry more than the page holds: if it comes back, there is a next page and the response gets an
 * RFC 5988 {@code Link: <...>; rel="next"} header pointing at it.
 */
public record PageRequest(int size, Optional<String> last) {

    public static PageRequest from(QueryParameters query, int maxPageSize) {
        int size = query.first("n").map(n -> parseSize(n, maxPageSize)).orElse(maxPageSize);
        return new PageRequest(size, query.first("last").filter(last -> !last.isEmpty()));
    }

    private static int parseSize(String n, int maxPageSize) {
        try {
            int size = Integer.parseInt(n);
            if (size >= 0) {
                // A larger n is allowed, but answered in pages: the Link header leads on.
                return Math.min(size, maxPageSize);
            }
        } catch (NumberFormatException e) {
            // falls through to the error below
        }
        throw RegistryException.of(ErrorCode.UNSUPPORTED, "invalid n='" + n
                + "': n is the number of entries wanted, a non-negative integer").withStatus(HttpStatus.BAD_REQUEST);
    }

    /** How many entries to fetch from the store to know whether a next page exists. */
    public int fetchSize() {
        return size == 0 ? 0 : size + 1;
    }

    /** The entries of this page out of {@code fetched}, adding the Link header when more follow. */
    public List<String> page(List<String> fetched, String path, HttpServletResponse response) {
        return page(fetched, Function.identity(), path, response);
    }

    /**
     * The entries of this page out of {@code fetched}, adding the Link header when more follow;
     * {@code position} is what {@code last} names an entry by. {@code path} may carry a query already.
     */
    public <T> List<T> page(List<T> fetched, Function<T, String> position, String path, HttpServletResponse response) {
        if (fetched.size() <= size) {
            return fetched;
        }
        List<T> page = fetched.subList(0, size);
        response.setHeader("Link", "<" + path + (path.contains("?") ? "&" : "?") + "n=" + size + "&last="
                + URLEncoder.encode(position.apply(page.getLast()), StandardCharsets.UTF_8) + ">; rel=\"next\"");
        return page;
    }
}
