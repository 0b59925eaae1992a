package dev.layerfold.e2e.clients;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.e2e.blob.Sha256;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * helm: creates and packages a chart, pushes it to an OCI repository, pulls it back (the same
 * archive, byte for byte) and renders it from the registry as it renders the local archive.
 */
final class HelmFlow {

    static final String VERSION = "v3.21.4";
    static final String INSTALL = "go install helm.sh/helm/v3/cmd/helm@" + VERSION;
    private static final Pattern DIGEST = Pattern.compile("Digest: (sha256:[0-9a-f]{64})");

    String run(MatrixRegistry registry, Path work) throws Exception {
        long deduplicatedBefore = registry.layersDeduplicated();
        Path home = Files.createDirectories(work.resolve("helm"));
        ClientTool helm = ClientTool.require("helm", INSTALL).in(work).with(Map.of(
                "HELM_CONFIG_HOME", home.resolve("config").toString(),
                "HELM_CACHE_HOME", home.resolve("cache").toString(),
                "HELM_DATA_HOME", home.resolve("data").toString(),
                "HELM_REGISTRY_CONFIG", home.resolve("registry.json").toString()));
        for (String host : registry.hosts()) {
            helm.run("registry", "login", host, "--plain-http", "-u", MatrixRegistry.USER, "-p", MatrixRegistry.PASSWORD);
        }
        helm.run("create", "matrixchart");
        helm.run("package", "matrixchart", "-d", "packaged");
        Path chart = work.resolve("packaged/matrixchart-0.1.0.tgz");

        String pushed = digest(helm.run("push", chart.toString(), "oci://" + registry.pushHost() + "/matrix/charts",
                "--plain-http"));

        // A chart is a gzip'd tar, but its media type is not among those the registry splits
        // (LayerDeduplicator.SPLITTABLE): it stays as pushed.
        assertThat(registry.settle().layersDeduplicated() - deduplicatedBefore).as("layers deduplicated before the pulls")
                .isEqualTo(0);
        RegistryReader reader = registry.reader();
        RegistryReader.Manifest manifest = reader.manifest("matrix/charts/matrixchart", "0.1.0");
        assertThat(manifest.digest()).as("digest of the chart's manifest").isEqualTo(pushed);
        assertThat(manifest.json().path("config").path("mediaType").asString())
                .isEqualTo("application/vnd.cncf.helm.config.v1+json");
        JsonNode layer = manifest.json().path("layers").get(0);
        assertThat(layer.path("mediaType").asString()).isEqualTo("application/vnd.cncf.helm.chart.content.v1.tar+gzip");
        assertThat(layer.path("digest").asString()).isEqualTo(Sha256.of(Files.readAllBytes(chart)));
        reader.assertIntact("matrix/charts/matrixchart", pushed);

        String remote = "oci://" + registry.pullHost() + "/matrix/charts/matrixchart";
        Files.createDirectories(work.resolve("pulled"));
        String pulled = digest(helm.run("pull", remote, "--version", "0.1.0", "--plain-http", "-d", "pulled"));
        assertThat(pulled).as("digest helm pulled").isEqualTo(pushed);
        assertThat(work.resolve("pulled/matrixchart-0.1.0.tgz")).hasSameBinaryContentAs(chart);
        assertThat(helm.output("template", "matrix", remote, "--version", "0.1.0", "--plain-http"))
                .as("the chart rendered from the registry")
                .isEqualTo(helm.output("template", "matrix", chart.toString()))
                .contains("kind: Deployment");
        return helm.output("version", "--template", "{{.Version}}");
    }

    /** The manifest digest helm reports (on standard error or output, depending on the command). */
    private static String digest(dev.layerfold.e2e.client.CommandLine.Result result) {
        Matcher matcher = DIGEST.matcher(result.stderr() + "\n" + result.stdoutText());
        assertThat(matcher.find()).as("helm named a digest in: %s %s", result.stderr(), result.stdoutText()).isTrue();
        return matcher.group(1);
    }
}
