package dev.layerfold.registry.tag;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.registry.RegistryHttpTest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class TagListTest extends RegistryHttpTest {

    @Test
    void listsEveryTagInLexicalOrder() throws Exception {
        String repository = uniqueRepository("tags");
        for (String tag : List.of("v2", "latest", "v10")) {
            pushImage(repository, tag);
        }

        HttpResponse<byte[]> response = request("GET", "/v2/" + repository + "/tags/list").send();

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(jsonBody(response).get("name").stringValue()).isEqualTo(repository);
        assertThat(tags(response)).containsExactly("latest", "v10", "v2");
        assertThat(response.headers().firstValue("Link")).isEmpty();
    }

    @Test
    void pagesFollowTheLinkHeaderToTheEnd() throws Exception {
        String repository = uniqueRepository("tags");
        for (String tag : List.of("a", "b", "c", "d", "e")) {
            pushImage(repository, tag);
        }

        HttpResponse<byte[]> first = request("GET", "/v2/" + repository + "/tags/list?n=2").send();
        String next = nextPage(first);
        HttpResponse<byte[]> second = request("GET", next).send();
        HttpResponse<byte[]> third = request("GET", nextPage(second)).send();

        assertThat(tags(first)).containsExactly("a", "b");
        assertThat(next).isEqualTo("/v2/" + repository + "/tags/list?n=2&last=b");
        assertThat(tags(second)).containsExactly("c", "d");
        assertThat(tags(third)).containsExactly("e");
        assertThat(third.headers().firstValue("Link")).isEmpty();
    }

    @Test
    void lastAloneStartsAfterTheGivenTag() throws Exception {
        String repository = uniqueRepository("tags");
        for (String tag : List.of("a", "b", "c")) {
            pushImage(repository, tag);
        }

        HttpResponse<byte[]> response = request("GET", "/v2/" + repository + "/tags/list?last=a").send();

        assertThat(tags(response)).containsExactly("b", "c");
    }

    @Test
    void zeroEntriesGivesAnEmptyListWithoutLink() throws Exception {
        String repository = uniqueRepository("tags");
        pushImage(repository, "a");

        HttpResponse<byte[]> response = request("GET", "/v2/" + repository + "/tags/list?n=0").send();

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(tags(response)).isEmpty();
        assertThat(response.headers().firstValue("Link")).isEmpty();
    }

    @Test
    void unknownRepositoryIsNameUnknown() throws Exception {
        HttpResponse<byte[]> response = request("GET", "/v2/" + uniqueRepository("nothing") + "/tags/list").send();

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(errorCode(response)).isEqualTo("NAME_UNKNOWN");
    }

    @Test
    void repositoryWithBlobsButNoTagsHasAnEmptyList() throws Exception {
        String repository = uniqueRepository("tags");
        pushBlob(repository, "just a blob");

        HttpResponse<byte[]> response = request("GET", "/v2/" + repository + "/tags/list").send();

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(tags(response)).isEmpty();
    }

    @Test
    void negativeOrNonNumericPageSizeIsRefused() throws Exception {
        String repository = uniqueRepository("tags");
        pushImage(repository, "a");

        HttpResponse<byte[]> negative = request("GET", "/v2/" + repository + "/tags/list?n=-1").send();
        HttpResponse<byte[]> text = request("GET", "/v2/" + repository + "/tags/list?n=ten").send();

        assertThat(negative.statusCode()).isEqualTo(400);
        assertThat(text.statusCode()).isEqualTo(400);
        assertThat(text(text)).contains("non-negative integer");
    }

    private List<String> tags(HttpResponse<byte[]> response) {
        List<String> tags = new ArrayList<>();
        for (JsonNode tag : jsonBody(response).get("tags")) {
            tags.add(tag.stringValue());
        }
        return tags;
    }

    static String nextPage(HttpResponse<byte[]> response) {
        String link = response.headers().firstValue("Link").orElseThrow();
        assertThat(link).endsWith(">; rel=\"next\"");
        return link.substring(1, link.indexOf('>'));
    }
}
