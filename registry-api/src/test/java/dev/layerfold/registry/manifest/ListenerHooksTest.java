package dev.layerfold.registry.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.registry.RecordedPulls;
import dev.layerfold.registry.RecordedPulls.Pull;
import dev.layerfold.registry.RecordedPushes;
import dev.layerfold.registry.RegistryHttpTest;
import dev.layerfold.registry.api.Puller;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.predictor.ImageContents;
import dev.layerfold.storage.dedup.LayerTask;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** What the API tells the features that follow pushes and pulls: each pushed manifest's layers and contents, and who pulls what. */
class ListenerHooksTest extends RegistryHttpTest {

    @Autowired
    RecordedPushes pushes;

    @Autowired
    RecordedPulls pulls;

    @Test
    void aPushedImageManifestIsMappedToItsLayersWithTheirSizes() throws Exception {
        String repository = uniqueRepository("ilmap");
        Digest config = pushBlob(repository, "{}");
        Digest small = pushBlob(repository, "small layer");
        Digest large = pushBlob(repository, "a larger layer than the other");
        String manifest = "{\"schemaVersion\":2,\"mediaType\":\"" + OCI_MANIFEST + "\",\"config\":"
                + descriptor(OCI_CONFIG, config, 2) + ",\"layers\":[" + descriptor(OCI_LAYER, small, 11) + ","
                + descriptor(OCI_LAYER, large, 29) + "]}";
        Digest digest = pushManifest(repository, "v1", OCI_MANIFEST, manifest.getBytes(StandardCharsets.UTF_8));

        assertThat(pushes.contents(digest)).contains(new ImageContents.Layers(
                List.of(new ImageContents.Layer(small, 11), new ImageContents.Layer(large, 29))));
        assertThat(pushes.layer(small)).contains(new LayerTask(small, OCI_LAYER, 11));
        assertThat(pushes.layer(large)).contains(new LayerTask(large, OCI_LAYER, 29));
        assertThat(pushes.layer(config)).as("a config is no layer").isEmpty();
    }

    @Test
    void aPushedIndexIsMappedToItsManifestsWithTheirPlatforms() throws Exception {
        String repository = uniqueRepository("ilmap");
        Digest amd = pushImage(repository, "amd");
        Digest arm = pushImage(repository, "arm");
        Digest attestation = pushImage(repository, "att");
        String index = "{\"schemaVersion\":2,\"mediaType\":\"" + OCI_INDEX + "\",\"manifests\":["
                + entry(repository, amd, "{\"os\":\"linux\",\"architecture\":\"amd64\"}") + ","
                + entry(repository, arm, "{\"os\":\"linux\",\"architecture\":\"arm64\",\"variant\":\"v8\"}") + ","
                + entry(repository, attestation, "{\"os\":\"linux\",\"architecture\":\"not a word\"}") + "]}";
        Digest digest = pushManifest(repository, "multi", OCI_INDEX, index.getBytes(StandardCharsets.UTF_8));

        assertThat(pushes.contents(digest)).contains(new ImageContents.Index(List.of(
                new ImageContents.PlatformManifest(amd, "linux/amd64"),
                new ImageContents.PlatformManifest(arm, "linux/arm64/v8"),
                new ImageContents.PlatformManifest(attestation, ""))));
    }

    private String entry(String repository, Digest manifest, String platform) throws Exception {
        long size = request("HEAD", "/v2/" + repository + "/manifests/" + manifest).send().headers()
                .firstValueAsLong("Content-Length").orElseThrow();
        return "{\"mediaType\":\"" + OCI_MANIFEST + "\",\"digest\":\"" + manifest + "\",\"size\":" + size
                + ",\"platform\":" + platform + "}";
    }

    @Test
    void aDeletedManifestIsForgotten() throws Exception {
        String repository = uniqueRepository("ilmap");
        Digest digest = pushImage(repository, "v1");

        request("DELETE", "/v2/" + repository + "/manifests/" + digest).send();

        assertThat(pushes.deleted(digest)).isTrue();
    }

    @Test
    void manifestAndBlobGetsAreReportedWithTheClientsAddressAndAgentButHeadsAreNot() throws Exception {
        String repository = uniqueRepository("pulls");
        Digest manifest = pushImage(repository, "v1");
        Digest layer = pushBlob(repository, "layer of " + repository + ":v1");

        request("HEAD", "/v2/" + repository + "/manifests/v1").header("User-Agent", "docker/27.0 os/linux arch/arm64").send();
        request("GET", "/v2/" + repository + "/manifests/v1").header("User-Agent", "docker/27.0 os/linux arch/arm64").send();
        request("HEAD", "/v2/" + repository + "/blobs/" + layer).send();
        request("GET", "/v2/" + repository + "/blobs/" + layer).header("User-Agent", "docker/27.0 os/linux arch/arm64").send();

        Puller client = new Puller("client:127.0.0.1 docker/27.0 os/linux arch/arm64", "docker/27.0 os/linux arch/arm64");
        RepositoryName name = RepositoryName.of(repository);
        assertThat(pulls.of(repository)).containsExactly(new Pull("manifest", client, name, manifest),
                new Pull("blob", client, name, layer));
    }
}
