package dev.layerfold.e2e.clients;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.e2e.oci.Descriptor;
import dev.layerfold.e2e.oci.ImageWriter;
import dev.layerfold.e2e.oci.ImageWriter.Platform;
import dev.layerfold.e2e.oci.OciLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * cosign with a local key pair (no transparency log: nothing here reaches one): signs one image the
 * classic way (a {@code sha256-<digest>.sig} tag, what clients fall back to without a referrers API)
 * and another through the OCI 1.1 referrers API, verifies both through the pull host, copies image and
 * signature to another repository ({@code cosign copy} for the tag, {@code regctl image copy --referrers}
 * for the referrer) and verifies the copies.
 * <p>
 * Notation is not in the matrix: its Go module is not served by the module proxy this project's
 * machines reach, so {@code go install} cannot build it.
 */
final class CosignFlow {

    static final String VERSION = "v2.6.5";
    static final String INSTALL = "go install github.com/sigstore/cosign/v2/cmd/cosign@" + VERSION;
    static final String SIGNATURE_TYPE = "application/vnd.dev.cosign.artifact.sig.v1+json";
    private static final String KEY_PASSWORD = "matrix-cosign";

    String run(MatrixRegistry registry, Path work) throws Exception {
        long deduplicatedBefore = registry.layersDeduplicated();
        Path dockerConfig = Files.createDirectories(work.resolve("docker-config"));
        ClientTool cosign = ClientTool.require("cosign", INSTALL).in(work).with(Map.of(
                "DOCKER_CONFIG", dockerConfig.toString(),
                "COSIGN_PASSWORD", KEY_PASSWORD));
        ClientTool referrersCosign = cosign.with(Map.of("COSIGN_EXPERIMENTAL", "1"));
        ClientTool regctl = ClientTool.require("regctl", RegctlFlow.INSTALL)
                .with(Map.of("REGCTL_CONFIG", work.resolve("regctl-config.json").toString()));
        for (String host : registry.hosts()) {
            cosign.run("login", host, "-u", MatrixRegistry.USER, "-p", MatrixRegistry.PASSWORD);
            regctl.run("registry", "set", "--tls", "disabled", host);
            regctl.run("registry", "login", host, "-u", MatrixRegistry.USER, "-p", MatrixRegistry.PASSWORD);
        }
        cosign.run("generate-key-pair", "--output-key-prefix", "matrix");

        OciLayout layout = OciLayout.create(work.resolve("layout"));
        ImageWriter images = new ImageWriter(layout);
        Descriptor byTag = images.image(new Platform("linux", "amd64"), List.of(images.layer(9201, 5, 50_000)));
        Descriptor byReferrer = images.image(new Platform("linux", "amd64"), List.of(images.layer(9202, 5, 50_000)));
        layout.tag("tagged", byTag);
        layout.tag("referred", byReferrer);
        String push = registry.pushHost();
        String pull = registry.pullHost();
        regctl.run("image", "copy", "ocidir://" + layout.root() + ":tagged", push + "/matrix/cosign/tagged:v1");
        regctl.run("image", "copy", "ocidir://" + layout.root() + ":referred", push + "/matrix/cosign/referred:v1");

        List<String> insecure = List.of("--allow-http-registry", "--allow-insecure-registry");
        cosign.run(args("sign", insecure, "--key", "matrix.key", "--tlog-upload=false", "--yes",
                push + "/matrix/cosign/tagged@" + byTag.digest()));
        referrersCosign.run(args("sign", insecure, "--key", "matrix.key", "--tlog-upload=false", "--yes",
                "--registry-referrers-mode", "oci-1-1", push + "/matrix/cosign/referred@" + byReferrer.digest()));

        cosign.run(args("copy", insecure, push + "/matrix/cosign/tagged@" + byTag.digest(),
                push + "/matrix/cosign/tagged-copy"));
        regctl.run("image", "copy", "--referrers", push + "/matrix/cosign/referred@" + byReferrer.digest(),
                push + "/matrix/cosign/referred-copy:v1");

        // The two images' gzip'd layers are deduplicated (the signatures are not tar layers).
        assertThat(registry.settle().layersDeduplicated() - deduplicatedBefore).as("layers deduplicated before the pulls")
                .isEqualTo(2);
        RegistryReader reader = registry.reader();
        String sigTag = byTag.digest().replace(':', '-') + ".sig";
        for (String repository : List.of("matrix/cosign/tagged", "matrix/cosign/tagged-copy")) {
            assertThat(reader.tags(repository)).as("tags of %s", repository).contains(sigTag);
            String signature = reader.manifest(repository, sigTag).digest();
            reader.assertIntact(repository, signature);
            reader.assertIntact(repository, byTag.digest());
            assertThat(reader.manifest(repository, byTag.digest()).bytes()).isEqualTo(layout.readBlob(byTag.digest()));
            assertVerified(cosign.run(args("verify", insecure, "--key", "matrix.pub", "--insecure-ignore-tlog=true",
                    pull + "/" + repository + "@" + byTag.digest())).stdoutText(), byTag.digest());
        }
        for (String repository : List.of("matrix/cosign/referred", "matrix/cosign/referred-copy")) {
            JsonNode referrers = reader.referrers(repository, byReferrer.digest());
            assertThat(referrers.path("manifests").findValuesAsString("artifactType"))
                    .as("referrers of %s in %s", byReferrer.digest(), repository).containsExactly(SIGNATURE_TYPE);
            String signature = referrers.path("manifests").get(0).path("digest").asString();
            reader.assertIntact(repository, signature);
            reader.assertIntact(repository, byReferrer.digest());
            assertThat(reader.manifest(repository, byReferrer.digest()).bytes())
                    .isEqualTo(layout.readBlob(byReferrer.digest()));
            assertVerified(referrersCosign.run(args("verify", insecure, "--key", "matrix.pub",
                    "--insecure-ignore-tlog=true", "--experimental-oci11",
                    pull + "/" + repository + "@" + byReferrer.digest())).stdoutText(), byReferrer.digest());
        }
        return cosign.output("version", "--json").replaceAll("(?s).*\"gitVersion\": *\"([^\"]+)\".*", "$1");
    }

    /** cosign verify printed one verified payload per signature, each naming the image's digest. */
    private static void assertVerified(String output, String digest) {
        JsonNode payloads = RegistryReader.JSON.readTree(output);
        assertThat(payloads.isArray() && !payloads.isEmpty()).as("verified signatures: %s", output).isTrue();
        for (JsonNode payload : payloads) {
            assertThat(payload.path("critical").path("image").path("docker-manifest-digest").asString())
                    .as("signed digest in %s", payload).isEqualTo(digest);
        }
    }

    private static List<String> args(String subcommand, List<String> common, String... rest) {
        List<String> all = new ArrayList<>();
        all.add(subcommand);
        all.addAll(common);
        all.addAll(List.of(rest));
        return all;
    }
}
