package dev.layerfold.registry.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.registry.RegistryHttpTest;
import java.net.URLDecoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class CatalogTest extends RegistryHttpTest {

    @Test
    void catalogPagesThroughRepositoriesInLexicalOrderWithLinkHeaders() throws Exception {
        // Other tests share the registry: start the listing just before this test's own repositories.
        String prefix = uniqueRepository("catalog");
        for (String name : List.of("c", "a", "b/nested")) {
            pushBlob(prefix + "/" + name, "blob of " + name);
        }

        HttpResponse<byte[]> first = request("GET", "/v2/_catalog?n=2&last=" + prefix).send();
        String link = first.headers().firstValue("Link").orElseThrow();
        String next = link.substring(1, link.indexOf('>'));
        HttpResponse<byte[]> second = request("GET", next).send();

        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(repositories(first)).containsExactly(prefix + "/a", prefix + "/b/nested");
        assertThat(link).endsWith(">; rel=\"next\"");
        assertThat(URLDecoder.decode(next, StandardCharsets.UTF_8)).isEqualTo("/v2/_catalog?n=2&last=" + prefix + "/b/nested");
        assertThat(repositories(second)).first().isEqualTo(prefix + "/c");
    }

    @Test
    void invalidLastIsNameInvalid() throws Exception {
        HttpResponse<byte[]> response = request("GET", "/v2/_catalog?last=UPPER").send();

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(errorCode(response)).isEqualTo("NAME_INVALID");
    }

    private List<String> repositories(HttpResponse<byte[]> response) {
        List<String> names = new ArrayList<>();
        for (JsonNode name : jsonBody(response).get("repositories")) {
            names.add(name.stringValue());
        }
        return names;
    }
}
