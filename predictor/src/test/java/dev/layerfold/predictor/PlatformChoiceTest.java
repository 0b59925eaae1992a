package dev.layerfold.predictor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.predictor.ImageContents.Index;
import dev.layerfold.storage.predictor.ImageContents.PlatformManifest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlatformChoiceTest {

    private static final PlatformManifest AMD = entry("amd", "linux/amd64");
    private static final PlatformManifest ARM = entry("arm", "linux/arm64/v8");
    private static final PlatformManifest ATTESTATION = entry("att", "unknown/unknown");
    private static final Index INDEX = new Index(List.of(AMD, ARM, ATTESTATION));

    private static PlatformManifest entry(String name, String platform) {
        return new PlatformManifest(Digest.sha256(name.getBytes(StandardCharsets.UTF_8)), platform);
    }

    @Test
    void theUserAgentsPlatformWinsWhateverItsVariant() {
        String docker = "docker/27.3.1 go/go1.22.7 git-commit/41ca978 kernel/6.8.0 os/linux arch/arm64 UpstreamClient(Docker-Client/27.3.1)";

        assertThat(PlatformChoice.choose(INDEX, docker, "linux/amd64")).contains(ARM);
    }

    @Test
    void withoutOneInTheAgentThePlatformTheClientPickedLastIsPredicted() {
        assertThat(PlatformChoice.choose(INDEX, "containerd/1.7.24", "linux/arm64/v8")).contains(ARM);
        assertThat(PlatformChoice.choose(INDEX, "containerd/1.7.24", "linux/amd64")).contains(AMD);
    }

    @Test
    void anIndexWithOneRealPlatformNeedsNoHint() {
        assertThat(PlatformChoice.choose(new Index(List.of(AMD, ATTESTATION)), "skopeo/1.9.3", "")).contains(AMD);
        assertThat(PlatformChoice.choose(INDEX, "skopeo/1.9.3", "")).isEmpty();
    }
}
