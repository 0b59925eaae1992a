package dev.layerfold.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.e2e.client.Crane;
import dev.layerfold.e2e.oci.Descriptor;
import dev.layerfold.e2e.oci.ImageWriter;
import dev.layerfold.e2e.oci.ImageWriter.Platform;
import dev.layerfold.e2e.oci.OciLayout;
import dev.layerfold.e2e.process.RegistryProcess;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** crane (go-containerregistry), a second client implementation, pushes, copies and pulls through Layerfold. */
@ExtendWith(LayerfoldExtension.class)
class CraneTest {

    private final Crane crane = Crane.installed();

    @Test
    void imagePushedAndCopiedToAnotherRepositoryComesBackIntactFromBoth(RegistryProcess layerfold, @TempDir Path work)
            throws Exception {
        OciLayout pushed = OciLayout.create(work.resolve("pushed"));
        ImageWriter images = new ImageWriter(pushed);
        Descriptor manifest = images.image(new Platform("linux", "amd64"),
                List.of(images.layer(30, 4, 100_000), images.layer(31, 20, 5_000)));
        pushed.tag("v1", manifest);
        String original = layerfold.hostAndPort() + "/e2e/crane/original:v1";
        String copy = layerfold.hostAndPort() + "/e2e/crane/copy:v1";

        crane.push(pushed.root(), original);
        crane.copy(original, copy);

        for (String image : List.of(original, copy)) {
            assertThat(crane.digest(image)).as("digest of %s", image).isEqualTo(manifest.digest());
            assertThat(crane.manifest(image)).as("manifest of %s", image).isEqualTo(pushed.readBlob(manifest.digest()));
        }
        Path pulledDir = work.resolve("pulled");
        crane.pull(copy, pulledDir);
        OciLayout pulled = OciLayout.open(pulledDir);
        assertThat(pulled.closure(manifest.digest())).isEqualTo(pushed.closure(manifest.digest()));
        for (String blob : pushed.closure(manifest.digest())) {
            assertThat(pulled.digestOfStored(blob)).as("digest of the bytes crane pulled for %s", blob).isEqualTo(blob);
        }
    }
}
