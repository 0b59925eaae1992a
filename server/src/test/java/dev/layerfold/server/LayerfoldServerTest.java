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
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The assembled executable with its embedded defaults: the API answers and operators can see it. */
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

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void answersTheDistributionApiVersionCheck() throws Exception {
        HttpResponse<String> response = send("GET", "/v2/");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Docker-Distribution-API-Version")).hasValue("registry/2.0");
    }

    @Test
    void exposesMetricsInPrometheusFormatForOperators() throws Exception {
        HttpResponse<String> response = send("GET", "/actuator/prometheus");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("jvm_memory_used_bytes");
    }

    @Test
    void requestMetricsNameTheDistributionEndpointNotTheCatchAllMapping() throws Exception {
        String digest = "sha256:" + "0".repeat(64);
        assertThat(send("HEAD", "/v2/team/app/blobs/" + digest).statusCode()).isEqualTo(404);
        assertThat(send("GET", "/v2/team/app/manifests/latest").statusCode()).isEqualTo(404);

        String metrics = send("GET", "/actuator/prometheus").body();

        assertThat(metrics).contains("uri=\"/v2/{name}/blobs/{digest}\"").contains("uri=\"/v2/{name}/manifests/{reference}\"")
                .doesNotContain("uri=\"/v2/**\"");
    }

    private HttpResponse<String> send(String method, String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }
}
