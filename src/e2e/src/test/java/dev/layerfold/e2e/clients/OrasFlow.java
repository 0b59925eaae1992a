package dev.layerfold.e2e.clients;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.e2e.blob.GeneratedContent;
import dev.layerfold.e2e.blob.Sha256;
import dev.layerfold.e2e.oci.Descriptor;
import dev.layerfold.e2e.oci.ImageWriter;
import dev.layerfold.e2e.oci.ImageWriter.Platform;
import dev.layerfold.e2e.oci.OciLayout;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * oras: pushes an artifact of a custom type (custom layer media types, the empty config), copies an
 * image in from an OCI layout, attaches an artifact to it, discovers it through the referrers API, and
 * pulls both artifacts back file by file.
 */
final class OrasFlow {

    static final String VERSION = "v1.3.6";
    static final String INSTALL = "go install oras.land/oras/cmd/oras@" + VERSION;
    static final String ARTIFACT_TYPE = "application/vnd.layerfold.matrix.bundle.v1";
    static final String SBOM_TYPE = "application/vnd.layerfold.matrix.sbom.v1+json";

    String run(MatrixRegistry registry, Path work) throws Exception {
        long deduplicatedBefore = registry.layersDeduplicated();
        Path config = work.resolve("oras-auth.json");
        Path files = Files.createDirectories(work.resolve("oras-files"));
        // Run where the files are: oras names each file in the manifest as it was given (its title).
        ClientTool oras = ClientTool.require("oras", INSTALL).in(files);
        for (String host : registry.hosts()) {
            oras.run("login", "--plain-http", "--registry-config", config.toString(), "-u", MatrixRegistry.USER,
                    "-p", MatrixRegistry.PASSWORD, host);
        }
        List<String> common = List.of("--plain-http", "--registry-config", config.toString());
        String push = registry.pushHost();
        String pull = registry.pullHost();

        // An artifact of a custom type, with the empty config oras writes for it and two files of custom types.
        Path data = files.resolve("data.bin");
        try (InputStream content = new GeneratedContent(8101, 300_000)) {
            Files.copy(content, data);
        }
        Path notes = Files.writeString(files.resolve("notes.txt"), "layerfold client matrix\n");
        JsonNode bundle = json(oras.run(args(common, "push", "--format", "json", "--artifact-type", ARTIFACT_TYPE,
                push + "/matrix/oras/bundle:v1",
                "data.bin:application/vnd.layerfold.matrix.data", "notes.txt:text/plain")).stdoutText());
        String bundleDigest = bundle.path("digest").asString();

        // An image, copied in from an OCI layout, and an SBOM attached to it.
        OciLayout layout = OciLayout.create(work.resolve("oras-layout"));
        ImageWriter images = new ImageWriter(layout);
        Descriptor image = images.image(new Platform("linux", "amd64"), List.of(images.layer(8102, 6, 40_000)));
        layout.tag("v1", image);
        oras.run("cp", "--to-plain-http", "--to-registry-config", config.toString(), "--from-oci-layout",
                layout.root() + ":v1", push + "/matrix/oras/app:v1");
        Path sbom = Files.writeString(files.resolve("sbom.json"), "{\"packages\":[\"layerfold\"]}");
        JsonNode attached = json(oras.run(args(common, "attach", "--format", "json", "--artifact-type", SBOM_TYPE,
                push + "/matrix/oras/app@" + image.digest(), "sbom.json:application/json")).stdoutText());
        String sbomDigest = attached.path("digest").asString();

        // The image's layer is deduplicated; the artifacts' files are not tar layers and stay as pushed.
        assertThat(registry.settle().layersDeduplicated() - deduplicatedBefore).as("layers deduplicated before the pulls")
                .isEqualTo(1);
        RegistryReader reader = registry.reader();
        JsonNode manifest = reader.manifest("matrix/oras/bundle", "v1").json();
        assertThat(reader.manifest("matrix/oras/bundle", "v1").digest()).isEqualTo(bundleDigest);
        assertThat(manifest.path("artifactType").asString()).isEqualTo(ARTIFACT_TYPE);
        assertThat(manifest.path("config").path("mediaType").asString()).isEqualTo("application/vnd.oci.empty.v1+json");
        assertThat(manifest.path("config").path("size").asLong()).isEqualTo(2);
        assertThat(reader.blob("matrix/oras/bundle", manifest.path("config").path("digest").asString()))
                .isEqualTo("{}".getBytes(StandardCharsets.UTF_8));
        assertThat(manifest.path("layers").findValuesAsString("mediaType"))
                .containsExactly("application/vnd.layerfold.matrix.data", "text/plain");
        reader.assertIntact("matrix/oras/bundle", bundleDigest);
        reader.assertIntact("matrix/oras/app", image.digest());
        assertThat(reader.manifest("matrix/oras/app", "v1").bytes()).isEqualTo(layout.readBlob(image.digest()));

        Path pulledBundle = work.resolve("oras-pulled-bundle");
        oras.run(args(common, "pull", "-o", pulledBundle.toString(), pull + "/matrix/oras/bundle@" + bundleDigest));
        assertThat(pulledBundle.resolve(data.getFileName())).hasSameBinaryContentAs(data);
        assertThat(pulledBundle.resolve(notes.getFileName())).hasSameBinaryContentAs(notes);

        JsonNode discovered = json(oras.run(args(common, "discover", "--format", "json", "--artifact-type", SBOM_TYPE,
                pull + "/matrix/oras/app@" + image.digest())).stdoutText());
        assertThat(discovered.path("referrers").findValuesAsString("digest")).containsExactly(sbomDigest);
        JsonNode referrers = reader.referrers("matrix/oras/app", image.digest());
        assertThat(referrers.path("manifests").findValuesAsString("digest")).containsExactly(sbomDigest);
        JsonNode sbomManifest = reader.manifest("matrix/oras/app", sbomDigest).json();
        assertThat(sbomManifest.path("subject").path("digest").asString()).isEqualTo(image.digest());
        reader.assertIntact("matrix/oras/app", sbomDigest);

        Path pulledSbom = work.resolve("oras-pulled-sbom");
        oras.run(args(common, "pull", "-o", pulledSbom.toString(), pull + "/matrix/oras/app@" + sbomDigest));
        assertThat(pulledSbom.resolve(sbom.getFileName())).hasSameBinaryContentAs(sbom);
        assertThat(Sha256.of(Files.readAllBytes(pulledBundle.resolve(data.getFileName()))))
                .isEqualTo(manifest.path("layers").get(0).path("digest").asString());

        return oras.output("version").lines().findFirst().orElse("?").replace("Version:", "").strip();
    }

    private static List<String> args(List<String> common, String subcommand, String... rest) {
        List<String> all = new ArrayList<>();
        all.add(subcommand);
        all.addAll(common);
        all.addAll(List.of(rest));
        return all;
    }

    private static JsonNode json(String text) {
        return RegistryReader.JSON.readTree(text);
    }
}
