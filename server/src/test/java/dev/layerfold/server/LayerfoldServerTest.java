package dev.layerfold.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The assembled executable with its embedded defaults: the API answers on the registry port, and
 * operators see it on the management port, which the registry port does not serve.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class LayerfoldServerTest {

    @TempDir
    static Path data;

    @DynamicPropertySource
    static void storeDataInATemporaryDirectory(DynamicPropertyRegistry properties) {
        properties.add("layerfold.storage.path", data::toString);
    }

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void answersTheDistributionApiVersionCheck() throws Exception {
        HttpResponse<String> response = send("GET", "/v2/");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Docker-Distribution-API-Version")).hasValue("registry/2.0");
    }

    @Test
    void exposesMetricsInPrometheusFormatForOperators() throws Exception {
        HttpResponse<String> response = send(managementPort, "GET", "/actuator/prometheus");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("jvm_memory_used_bytes");
    }

    @Test
    void theRegistryPortServesNoManagementEndpoint() throws Exception {
        for (String path : new String[] {"/actuator/health", "/actuator/prometheus", "/actuator/gc", "/actuator/dedup", "/actuator"}) {
            assertThat(send("GET", path).statusCode()).as(path).isEqualTo(404);
        }
        assertThat(send(managementPort, "GET", "/actuator/health").statusCode()).isEqualTo(200);
    }

    @Test
    void theManagementPortServesNoDistributionApi() throws Exception {
        assertThat(send(managementPort, "GET", "/v2/").statusCode()).isEqualTo(404);
    }

    @Test
    void requestMetricsNameTheDistributionEndpointNotTheCatchAllMapping() throws Exception {
        String digest = "sha256:" + "0".repeat(64);
        assertThat(send("HEAD", "/v2/team/app/blobs/" + digest).statusCode()).isEqualTo(404);
        assertThat(send("GET", "/v2/team/app/manifests/latest").statusCode()).isEqualTo(404);

        String metrics = send(managementPort, "GET", "/actuator/prometheus").body();

        assertThat(metrics).contains("uri=\"/v2/{name}/blobs/{digest}\"").contains("uri=\"/v2/{name}/manifests/{reference}\"")
                .doesNotContain("uri=\"/v2/**\"");
    }

    @Test
    void requestsWithABodyAreTaggedWithTheirRouteInALatencyHistogram() throws Exception {
        byte[] blob = "a blob pushed in one request".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        HttpResponse<String> pushed = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port
                        + "/v2/team/app/blobs/uploads/?digest=" + dev.layerfold.storage.Digest.sha256(blob)))
                .POST(HttpRequest.BodyPublishers.ofByteArray(blob)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(pushed.statusCode()).as(pushed.body()).isEqualTo(201);
        HttpResponse<String> manifest = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port
                        + "/v2/team/app/manifests/latest")).header("Content-Type", "application/vnd.oci.image.manifest.v1+json")
                .PUT(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(manifest.statusCode()).isEqualTo(400);

        String metrics = send(managementPort, "GET", "/actuator/prometheus").body();

        assertThat(metrics).containsPattern("http_server_requests_seconds_bucket\\{[^}]*method=\"POST\"[^}]*uri=\"/v2/\\{name\\}/blobs/uploads/\"")
                .containsPattern("http_server_requests_seconds_count\\{[^}]*method=\"PUT\"[^}]*uri=\"/v2/\\{name\\}/manifests/\\{reference\\}\"")
                .contains("le=\"0.1\"")
                .doesNotContain("uri=\"/v2/**\"");
    }

    private HttpResponse<String> send(String method, String path) throws IOException, InterruptedException {
        return send(port, method, path);
    }

    private HttpResponse<String> send(int port, String method, String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }
}
