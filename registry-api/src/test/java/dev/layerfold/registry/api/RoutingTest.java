package dev.layerfold.registry.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.registry.RegistryHttpTest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RoutingTest extends RegistryHttpTest {

    @Test
    void apiVersionCheckAnswersWithEmptyJsonAndTheVersionHeader() throws Exception {
        HttpResponse<byte[]> response = request("GET", "/v2/").send();

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Docker-Distribution-API-Version")).hasValue("registry/2.0");
        assertThat(new String(response.body())).isEqualTo("{}");
    }

    @Test
    void errorResponsesCarryTheVersionHeaderAndTheSpecErrorBody() throws Exception {
        HttpResponse<byte[]> response = request("GET", "/v2/no-such-repo/manifests/latest").send();

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.headers().firstValue("Docker-Distribution-API-Version")).hasValue("registry/2.0");
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
        assertThat(errorCode(response)).isEqualTo("MANIFEST_UNKNOWN");
        assertThat(jsonBody(response).get("errors").get(0).get("message").stringValue()).contains("no-such-repo");
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "/v2/a/../b/tags/list",
            "/v2/a/%2e%2e/b/tags/list",
            "/v2/%2e%2e/tags/list",
            "/v2/Upper/tags/list",
            "/v2/a//b/tags/list",
            "/v2/a%2Fb/tags/list",
            "/v2/-leading/tags/list",
            "/v2/a;x=1/tags/list"})
    void hostileOrMalformedRepositoryNamesAreNameInvalid(String path) throws Exception {
        HttpResponse<byte[]> response = request("GET", path).send();

        assertThat(response.statusCode()).as(text(response)).isEqualTo(400);
        assertThat(errorCode(response)).isEqualTo("NAME_INVALID");
    }

    @Test
    void repositoryNameLongerThan255CharactersIsNameInvalid() throws Exception {
        HttpResponse<byte[]> response = request("GET", "/v2/" + "a".repeat(256) + "/tags/list").send();

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(errorCode(response)).isEqualTo("NAME_INVALID");
    }

    @Test
    void dotSegmentsThatLeaveV2AreRefusedBeforeRouting() throws Exception {
        HttpResponse<byte[]> response = request("GET", "/v2/../actuator/health").send();

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(errorCode(response)).isEqualTo("NAME_INVALID");
    }

    @Test
    void unknownEndpointUnderV2Is404WithAnErrorBody() throws Exception {
        HttpResponse<byte[]> response = request("GET", "/v2/some/repo/nothing-here").send();

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(errorCode(response)).isEqualTo("UNSUPPORTED");
    }

    @Test
    void methodNotAllowedNamesTheAllowedMethods() throws Exception {
        HttpResponse<byte[]> response = request("POST", "/v2/some/repo/tags/list").send();

        assertThat(response.statusCode()).isEqualTo(405);
        assertThat(response.headers().firstValue("Allow")).hasValue("GET, HEAD");
        assertThat(errorCode(response)).isEqualTo("UNSUPPORTED");
    }

    @Test
    void malformedDigestInBlobPathIsDigestInvalid() throws Exception {
        HttpResponse<byte[]> response = request("GET", "/v2/some/repo/blobs/sha256:abc").send();

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(errorCode(response)).isEqualTo("DIGEST_INVALID");
    }
}
