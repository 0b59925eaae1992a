package dev.layerfold.server;

import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.usage.RepositoryUsage;
import dev.layerfold.storage.usage.Usage;
import dev.layerfold.storage.usage.UsageOrder;
import dev.layerfold.storage.usage.UsageTotals;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.lang.Nullable;
import org.springframework.stereotype.Component;

/**
 * {@code /actuator/usage}: what each repository costs, read from the accounting (never from the
 * bucket). {@code GET /actuator/usage?order=stored&offset=0&limit=100} pages through every repository
 * sorted by {@code stored}, {@code logical}, {@code freed}, {@code pulls} (largest first) or {@code name};
 * {@code GET /actuator/usage/<repository>} answers one. On the management port, for admins only.
 */
@Component
@Endpoint(id = "usage")
class UsageEndpoint {

    static final int MAX_LIMIT = 1000;

    private final RepositoryUsage usage;

    UsageEndpoint(RepositoryUsage usage) {
        this.usage = usage;
    }

    @ReadOperation
    WebEndpointResponse<Map<String, Object>> page(@Nullable String order, @Nullable Integer offset, @Nullable Integer limit)
            throws IOException {
        UsageOrder sort;
        try {
            sort = order == null ? UsageOrder.STORED : UsageOrder.valueOf(order.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return new WebEndpointResponse<>(Map.of("error", "order '" + order + "' is none of stored, logical, freed, pulls, name"), 400);
        }
        int from = offset == null ? 0 : offset;
        int count = limit == null ? 100 : limit;
        if (from < 0 || count < 1 || count > MAX_LIMIT) {
            return new WebEndpointResponse<>(Map.of("error", "offset must be 0 or more and limit 1 to " + MAX_LIMIT), 400);
        }
        List<Usage> page = usage.page(sort, from, count);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("complete", usage.complete());
        body.put("totals", totals(usage.totals()));
        body.put("order", sort.name().toLowerCase(Locale.ROOT));
        body.put("offset", from);
        body.put("limit", count);
        body.put("repositories", page.stream().map(UsageEndpoint::figures).toList());
        if (page.size() == count) {
            body.put("next", "?order=" + sort.name().toLowerCase(Locale.ROOT) + "&offset=" + (from + count) + "&limit=" + count);
        }
        return new WebEndpointResponse<>(body, 200);
    }

    @ReadOperation
    WebEndpointResponse<Map<String, Object>> repository(@Selector(match = Selector.Match.ALL_REMAINING) String[] name)
            throws IOException {
        RepositoryName repository;
        try {
            repository = RepositoryName.of(String.join("/", name));
        } catch (RuntimeException e) {
            return new WebEndpointResponse<>(Map.of("error", e.getMessage()), 400);
        }
        return usage.usage(repository).map(found -> new WebEndpointResponse<>(figures(found), 200))
                .orElseGet(() -> new WebEndpointResponse<>(Map.of("error", "no figures for repository " + repository), 404));
    }

    static Map<String, Object> figures(Usage usage) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("repository", usage.repository().value());
        body.put("logicalBytes", usage.logicalBytes());
        body.put("storedBytes", usage.storedBytes());
        body.put("savedBytes", usage.savedBytes());
        body.put("exclusiveBytes", usage.exclusiveBytes());
        body.put("sharedBytes", usage.sharedBytes());
        body.put("freedIfDeletedBytes", usage.freedBytes());
        body.put("pushes", usage.pushes());
        body.put("pulls", usage.pulls());
        return body;
    }

    static Map<String, Object> totals(UsageTotals totals) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("repositories", totals.repositories());
        body.put("logicalBytes", totals.logicalBytes());
        body.put("storedBytes", totals.storedBytes());
        body.put("savedBytes", totals.logicalBytes() - totals.storedBytes());
        body.put("sharedLogicalBytes", totals.sharedLogicalBytes());
        body.put("sharedStoredBytes", totals.sharedStoredBytes());
        return body;
    }
}
