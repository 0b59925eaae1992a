package dev.layerfold.registry.api;

import dev.layerfold.registry.error.ErrorCode;
import dev.layerfold.registry.error.RegistryException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.http.HttpStatus;
import org.springframework.web.util.UriUtils;

/**
 * The query string of a request, decoded; a parameter may repeat (several {@code tag=} or
 * {@code digest=}). A literal {@code +} stays a plus: media types such as
 * {@code application/vnd.example+json} are often sent unescaped, and no parameter here holds spaces.
 */
public final class QueryParameters {

    private final Map<String, List<String>> values;

    private QueryParameters(Map<String, List<String>> values) {
        this.values = values;
    }

    static QueryParameters parse(String rawQuery) {
        Map<String, List<String>> values = new LinkedHashMap<>();
        if (rawQuery != null && !rawQuery.isEmpty()) {
            for (String pair : rawQuery.split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int equals = pair.indexOf('=');
                String name = decode(equals < 0 ? pair : pair.substring(0, equals));
                String value = equals < 0 ? "" : decode(pair.substring(equals + 1));
                values.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
            }
        }
        return new QueryParameters(values);
    }

    public Optional<String> first(String name) {
        List<String> all = values.get(name);
        return all == null ? Optional.empty() : Optional.of(all.getFirst());
    }

    public List<String> all(String name) {
        return values.getOrDefault(name, List.of());
    }

    private static String decode(String text) {
        try {
            return UriUtils.decode(text, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw RegistryException.of(ErrorCode.UNSUPPORTED, "malformed query string near '" + text
                    + "': escape special characters as %XX").withStatus(HttpStatus.BAD_REQUEST);
        }
    }
}
