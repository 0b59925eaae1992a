package dev.layerfold.e2e.clients;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.e2e.oci.Descriptor;
import dev.layerfold.e2e.oci.ImageWriter;
import dev.layerfold.e2e.oci.ImageWriter.Platform;
import dev.layerfold.e2e.oci.OciLayout;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * regctl (regclient): copies a two-platform image from an OCI layout and between repositories, lists
 * and deletes tags, gets one platform's manifest from the index and a blob by digest.
 */
final class RegctlFlow {

    static final String VERSION = "v0.11.7";
    static final String INSTALL = "go install github.com/regclient/regclient/cmd/regctl@" + VERSION;

    /** Runs the flow; returns the client's version. */
    String run(MatrixRegistry registry, Path work) throws Exception {
        long deduplicatedBefore = registry.layersDeduplicated();
        ClientTool regctl = ClientTool.require("regctl", INSTALL)
                .with(Map.of("REGCTL_CONFIG", work.resolve("regctl-config.json").toString()));
        for (String host : registry.hosts()) {
            regctl.run("registry", "set", "--tls", "disabled", host);
            regctl.run("registry", "login", host, "-u", MatrixRegistry.USER, "-p", MatrixRegistry.PASSWORD);
        }
        OciLayout layout = OciLayout.create(work.resolve("layout"));
        ImageWriter images = new ImageWriter(layout);
        ImageWriter.Layer shared = images.layer(7101, 12, 6_000);
        Descriptor amd64 = images.image(new Platform("linux", "amd64"), List.of(images.layer(7102, 4, 60_000), shared));
        Descriptor arm64 = images.image(new Platform("linux", "arm64"), List.of(images.layer(7103, 4, 60_000), shared));
        Descriptor index = images.index(List.of(new Platform("linux", "amd64"), new Platform("linux", "arm64")),
                List.of(amd64, arm64));
        layout.tag("v1", index);

        String push = registry.pushHost();
        String pull = registry.pullHost();
        regctl.run("image", "copy", "ocidir://" + layout.root() + ":v1", push + "/matrix/regctl/app:v1");
        regctl.run("image", "copy", push + "/matrix/regctl/app:v1", push + "/matrix/regctl/copy:v1");
        regctl.run("image", "copy", push + "/matrix/regctl/app:v1", push + "/matrix/regctl/app:doomed");

        // The three gzip'd layers (java.util.zip) are deduplicated: the pulls below rebuild them.
        assertThat(registry.settle().layersDeduplicated() - deduplicatedBefore).as("layers deduplicated before the pulls")
                .isEqualTo(3);
        assertThat(regctl.output("tag", "ls", pull + "/matrix/regctl/app").lines().toList())
                .containsExactlyInAnyOrder("v1", "doomed");
        regctl.run("tag", "delete", pull + "/matrix/regctl/app:doomed");
        assertThat(regctl.output("tag", "ls", pull + "/matrix/regctl/app").lines().toList()).containsExactly("v1");

        for (String repository : List.of("matrix/regctl/app", "matrix/regctl/copy")) {
            String image = pull + "/" + repository + ":v1";
            assertThat(regctl.output("image", "digest", image)).as("index digest of %s", image).isEqualTo(index.digest());
            assertThat(regctl.output("image", "digest", "--platform", "linux/arm64", image))
                    .as("arm64 digest of %s", image).isEqualTo(arm64.digest());
            assertThat(regctl.run("manifest", "get", "--platform", "linux/arm64", "--format", "raw-body", image).stdout())
                    .as("arm64 manifest of %s", image).isEqualTo(layout.readBlob(arm64.digest()));
            assertThat(regctl.run("manifest", "get", "--format", "raw-body", image).stdout())
                    .as("index of %s", image).isEqualTo(layout.readBlob(index.digest()));
            for (String blob : layout.closure(index.digest())) {
                if (!blob.equals(index.digest()) && !blob.equals(amd64.digest()) && !blob.equals(arm64.digest())) {
                    assertThat(regctl.run("blob", "get", pull + "/" + repository, blob).stdout())
                            .as("blob %s of %s by regctl", blob, repository).isEqualTo(layout.readBlob(blob));
                }
            }
            assertThat(registry.reader().assertIntact(repository, index.digest()))
                    .isEqualTo(layout.closure(index.digest()));
        }
        return regctl.output("version", "--format", "{{.VCSTag}}");
    }
}
