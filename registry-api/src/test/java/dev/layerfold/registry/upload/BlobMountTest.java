package dev.layerfold.registry.upload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.registry.RegistryHttpTest;
import dev.layerfold.storage.Digest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

class BlobMountTest extends RegistryHttpTest {

    @Test
    void mountFromAnotherRepositoryLinksTheBlobWithoutUpload() throws Exception {
        String source = uniqueRepository("mount-source");
        String target = uniqueRepository("mount-target");
        Digest digest = pushBlob(source, "shared layer");

        HttpResponse<byte[]> response = request("POST", "/v2/" + target + "/blobs/uploads/?mount=" + digest + "&from=" + source).send();

        assertThat(response.statusCode()).isEqualTo(201);
        assertThat(response.headers().firstValue("Location")).hasValue("/v2/" + target + "/blobs/" + digest);
        assertThat(response.headers().firstValue("Docker-Content-Digest")).hasValue(digest.toString());
        assertThat(request("HEAD", "/v2/" + target + "/blobs/" + digest).send().statusCode()).isEqualTo(200);
    }

    @Test
    void mountWithoutFromLinksABlobTheRegistryHolds() throws Exception {
        String target = uniqueRepository("mount-target");
        Digest digest = pushBlob(uniqueRepository("mount-source"), "layer known somewhere");

        HttpResponse<byte[]> response = request("POST", "/v2/" + target + "/blobs/uploads/?mount=" + digest).send();

        assertThat(response.statusCode()).isEqualTo(201);
    }

    @Test
    void mountWithoutFromNeverLinksADigestThatIsOnlyAManifestElsewhere() throws Exception {
        String target = uniqueRepository("mount-target");
        Digest manifest = pushImage(uniqueRepository("mount-source"), "v1");

        HttpResponse<byte[]> response = request("POST", "/v2/" + target + "/blobs/uploads/?mount=" + manifest).send();

        assertThat(response.statusCode()).isEqualTo(202);
        assertThat(request("HEAD", "/v2/" + target + "/blobs/" + manifest).send().statusCode()).isEqualTo(404);
    }

    @Test
    void mountFromARepositoryWithoutTheBlobFallsBackToAnUploadSession() throws Exception {
        String target = uniqueRepository("mount-target");
        Digest digest = pushBlob(uniqueRepository("mount-elsewhere"), "layer not in from");

        HttpResponse<byte[]> response = request("POST", "/v2/" + target + "/blobs/uploads/?mount=" + digest
                + "&from=" + uniqueRepository("mount-empty")).send();

        assertThat(response.statusCode()).isEqualTo(202);
        assertThat(response.headers().firstValue("Location")).hasValueSatisfying(
                location -> assertThat(location).startsWith("/v2/" + target + "/blobs/uploads/"));
        assertThat(request("HEAD", "/v2/" + target + "/blobs/" + digest).send().statusCode()).isEqualTo(404);
    }

    @Test
    void mountWithMalformedArgumentsFallsBackToAnUploadSession() throws Exception {
        String target = uniqueRepository("mount-target");

        HttpResponse<byte[]> response = request("POST", "/v2/" + target + "/blobs/uploads/?mount=sha256:nope&from=Bad..Name").send();

        assertThat(response.statusCode()).isEqualTo(202);
    }
}
