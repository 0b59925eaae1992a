package dev.layerfold.registry.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.registry.RegistryHttpTest;
import dev.layerfold.storage.Digest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

class ManifestPullAndDeleteTest extends RegistryHttpTest {

    @Test
    void acceptHeaderExcludingTheStoredTypeIsManifestUnknownNamingTheType() throws Exception {
        String repository = uniqueRepository("pull");
        pushImage(repository, "v1");

        HttpResponse<byte[]> excluded = request("GET", "/v2/" + repository + "/manifests/v1")
                .header("Accept", "application/vnd.docker.distribution.manifest.v2+json").send();
        HttpResponse<byte[]> wildcard = request("GET", "/v2/" + repository + "/manifests/v1")
                .header("Accept", "application/vnd.docker.distribution.manifest.v2+json, */*;q=0.1").send();
        HttpResponse<byte[]> listed = request("GET", "/v2/" + repository + "/manifests/v1")
                .header("Accept", "application/vnd.docker.distribution.manifest.v2+json")
                .header("Accept", OCI_MANIFEST).send();

        assertThat(excluded.statusCode()).isEqualTo(404);
        assertThat(errorCode(excluded)).isEqualTo("MANIFEST_UNKNOWN");
        assertThat(text(excluded)).contains(OCI_MANIFEST);
        assertThat(wildcard.statusCode()).isEqualTo(200);
        assertThat(listed.statusCode()).isEqualTo(200);
    }

    @Test
    void unknownTagAndUnknownDigestAreManifestUnknown() throws Exception {
        String repository = uniqueRepository("pull");
        pushImage(repository, "v1");

        HttpResponse<byte[]> tag = request("GET", "/v2/" + repository + "/manifests/v2").send();
        HttpResponse<byte[]> digest = request("HEAD", "/v2/" + repository + "/manifests/" + Digest.sha256(new byte[7])).send();

        assertThat(tag.statusCode()).isEqualTo(404);
        assertThat(errorCode(tag)).isEqualTo("MANIFEST_UNKNOWN");
        assertThat(digest.statusCode()).isEqualTo(404);
    }

    @Test
    void manifestPushedToAnotherRepositoryIsUnknownHere() throws Exception {
        Digest digest = pushImage(uniqueRepository("pull"), "v1");

        HttpResponse<byte[]> response = request("GET", "/v2/" + uniqueRepository("pull") + "/manifests/" + digest).send();

        assertThat(response.statusCode()).isEqualTo(404);
    }

    @Test
    void deletingATagRemovesOnlyTheTag() throws Exception {
        String repository = uniqueRepository("delete");
        Digest digest = pushImage(repository, "v1");

        HttpResponse<byte[]> deleted = request("DELETE", "/v2/" + repository + "/manifests/v1").send();

        assertThat(deleted.statusCode()).isEqualTo(202);
        assertThat(request("GET", "/v2/" + repository + "/manifests/v1").send().statusCode()).isEqualTo(404);
        assertThat(request("GET", "/v2/" + repository + "/manifests/" + digest).send().statusCode()).isEqualTo(200);
        assertThat(request("DELETE", "/v2/" + repository + "/manifests/v1").send().statusCode()).isEqualTo(404);
    }

    @Test
    void deletingADigestRemovesTheManifestAndItsTags() throws Exception {
        String repository = uniqueRepository("delete");
        Digest digest = pushImage(repository, "v1");

        HttpResponse<byte[]> deleted = request("DELETE", "/v2/" + repository + "/manifests/" + digest).send();

        assertThat(deleted.statusCode()).isEqualTo(202);
        assertThat(request("GET", "/v2/" + repository + "/manifests/" + digest).send().statusCode()).isEqualTo(404);
        assertThat(request("GET", "/v2/" + repository + "/manifests/v1").send().statusCode()).isEqualTo(404);
        assertThat(request("DELETE", "/v2/" + repository + "/manifests/" + digest).send().statusCode()).isEqualTo(404);
    }

    @Test
    void manifestOverTheDefault4MiBLimitIs413() throws Exception {
        String repository = uniqueRepository("limits");
        byte[] huge = ("{\"schemaVersion\":2,\"annotations\":{\"pad\":\"" + "x".repeat(4 * 1024 * 1024) + "\"}}").getBytes();

        HttpResponse<byte[]> response = request("PUT", "/v2/" + repository + "/manifests/huge")
                .header("Content-Type", OCI_MANIFEST).body(huge).send();

        assertThat(response.statusCode()).isEqualTo(413);
        assertThat(errorCode(response)).isEqualTo("SIZE_INVALID");
        assertThat(text(response)).contains("max-manifest-size");
    }
}
