package dev.layerfold.e2e;

import static dev.layerfold.e2e.oci.LayoutAssertions.assertSameImage;
import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.e2e.client.Skopeo;
import dev.layerfold.e2e.oci.Descriptor;
import dev.layerfold.e2e.oci.ImageWriter;
import dev.layerfold.e2e.oci.ImageWriter.Layer;
import dev.layerfold.e2e.oci.ImageWriter.Platform;
import dev.layerfold.e2e.oci.OciLayout;
import dev.layerfold.e2e.process.RegistryProcess;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** skopeo, the containers/image client, pushes images to Layerfold and pulls them back unchanged. */
@ExtendWith(LayerfoldExtension.class)
class SkopeoRoundTripTest {

    private static final Platform AMD64 = new Platform("linux", "amd64");
    private static final Platform ARM64 = new Platform("linux", "arm64");

    private final Skopeo skopeo = Skopeo.onPath();

    @Test
    void multiLayerImageComesBackWithEveryDigestIntact(RegistryProcess layerfold, @TempDir Path work) throws Exception {
        OciLayout pushed = OciLayout.create(work.resolve("pushed"));
        ImageWriter images = new ImageWriter(pushed);
        List<Layer> layers = List.of(images.layer(1, 3, 200_000), images.layer(2, 10, 30_000),
                images.layer(3, 1, 1_500_000), images.layer(4, 40, 1_000));
        Descriptor manifest = images.image(AMD64, layers);
        pushed.tag("v1", manifest);
        String remote = "docker://" + layerfold.hostAndPort() + "/e2e/skopeo/image:v1";

        skopeo.copy(pushed.skopeoReference("v1"), remote, "--dest-tls-verify=false", "--preserve-digests");
        OciLayout pulled = OciLayout.create(work.resolve("pulled"));
        skopeo.copy(remote, pulled.skopeoReference("v1"), "--src-tls-verify=false", "--preserve-digests");

        assertSameImage(pushed, pulled, "v1");
        assertThat(skopeo.inspectRaw(remote, "--tls-verify=false"))
                .as("manifest bytes served for %s", remote)
                .isEqualTo(pushed.readBlob(manifest.digest()));
    }

    @Test
    void multiPlatformIndexComesBackWithEveryPlatformImage(RegistryProcess layerfold, @TempDir Path work)
            throws Exception {
        OciLayout pushed = OciLayout.create(work.resolve("pushed"));
        ImageWriter images = new ImageWriter(pushed);
        Layer shared = images.layer(10, 5, 50_000);
        Descriptor amd64 = images.image(AMD64, List.of(shared, images.layer(11, 2, 100_000)));
        Descriptor arm64 = images.image(ARM64, List.of(shared, images.layer(12, 2, 100_000)));
        Descriptor index = images.index(List.of(AMD64, ARM64), List.of(amd64, arm64));
        pushed.tag("multi", index);
        String remote = "docker://" + layerfold.hostAndPort() + "/e2e/skopeo/multi-platform:multi";

        skopeo.copy(pushed.skopeoReference("multi"), remote, "--all", "--dest-tls-verify=false", "--preserve-digests");
        OciLayout pulled = OciLayout.create(work.resolve("pulled"));
        skopeo.copy(remote, pulled.skopeoReference("multi"), "--all", "--src-tls-verify=false", "--preserve-digests");

        assertSameImage(pushed, pulled, "multi");
        assertThat(skopeo.inspectRaw(remote, "--tls-verify=false"))
                .as("index bytes served for %s", remote)
                .isEqualTo(pushed.readBlob(index.digest()));
    }
}
