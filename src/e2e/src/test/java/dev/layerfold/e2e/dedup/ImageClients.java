package dev.layerfold.e2e.dedup;

import static dev.layerfold.e2e.oci.LayoutAssertions.assertSameBlobs;
import static dev.layerfold.e2e.oci.LayoutAssertions.assertSameImage;
import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.e2e.client.Crane;
import dev.layerfold.e2e.client.Skopeo;
import dev.layerfold.e2e.dedup.DistroImages.Image;
import dev.layerfold.e2e.oci.OciLayout;
import dev.layerfold.e2e.process.RegistryProcess;
import java.nio.file.Path;

/** Pushes the image set's images with skopeo or crane, and pulls them back with both, comparing every blob. */
final class ImageClients {

    private final Skopeo skopeo = Skopeo.onPath();
    private final Crane crane = Crane.installed();

    /** Pushes with skopeo or crane, preserving every digest. */
    void push(RegistryProcess node, Image image, boolean withSkopeo) throws Exception {
        if (withSkopeo) {
            skopeo.copy(image.layout().skopeoReference(DistroImages.TAG), "docker://" + reference(node, image),
                    "--dest-tls-verify=false", "--preserve-digests");
        } else {
            crane.push(image.layout().root(), reference(node, image));
        }
    }

    /** Pulls with skopeo and with crane into {@code work}; every blob must come back with the bytes its digest names. */
    void assertPullsBackByteForByte(RegistryProcess node, Image image, Path work) throws Exception {
        String remote = reference(node, image);
        String dir = image.name().replace('/', '-');
        OciLayout bySkopeo = OciLayout.create(work.resolve("skopeo").resolve(dir));
        skopeo.copy("docker://" + remote, bySkopeo.skopeoReference(DistroImages.TAG), "--src-tls-verify=false",
                "--preserve-digests");
        assertSameImage(image.layout(), bySkopeo, DistroImages.TAG);

        Path byCrane = work.resolve("crane").resolve(dir);
        crane.pull(remote, byCrane);
        String manifest = image.layout().tagged(DistroImages.TAG).digest();
        assertThat(crane.digest(remote)).as("manifest digest crane reads for %s", image.name()).isEqualTo(manifest);
        assertSameBlobs(image.layout(), OciLayout.open(byCrane), manifest);
    }

    private static String reference(RegistryProcess node, Image image) {
        return node.hostAndPort() + "/" + image.repository() + ":" + DistroImages.TAG;
    }
}
