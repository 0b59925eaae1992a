package dev.layerfold.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.security.crypto.bcrypt.BCrypt;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * With sign-in on, the management port's admin actions need the admin grant, health and metrics stay
 * open, and the admin filter guards the management port only: the registry port answers as its rules say.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class AdminPlaneTest {

    @TempDir
    static Path data;

    @DynamicPropertySource
    static void basicSignInWithAnAdmin(DynamicPropertyRegistry properties) {
        properties.add("layerfold.storage.path", data::toString);
        properties.add("layerfold.auth.mode", () -> "basic");
        properties.add("layerfold.auth.htpasswd", AdminPlaneTest::htpasswd);
        properties.add("layerfold.auth.access[0].repositories[0]", () -> "*");
        properties.add("layerfold.auth.access[0].users[0]", () -> "alice");
        properties.add("layerfold.auth.access[0].actions", () -> "pull,push");
        properties.add("layerfold.auth.access[1].repositories[0]", () -> "*");
        properties.add("layerfold.auth.access[1].users[0]", () -> "olga");
        properties.add("layerfold.auth.access[1].actions", () -> "admin");
    }

    private static String htpasswd() {
        try {
            return Files.writeString(data.resolve("htpasswd"), "alice:" + BCrypt.hashpw("alice-secret", BCrypt.gensalt(4))
                    + "\nolga:" + BCrypt.hashpw("olga-secret", BCrypt.gensalt(4)) + "\n").toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void adminActionsNeedTheAdminGrant() throws Exception {
        String collect = "{\"action\":\"collect\"}";
        assertThat(post(managementPort, "/actuator/gc", collect, Optional.empty()).statusCode()).isEqualTo(401);
        assertThat(post(managementPort, "/actuator/gc", collect, Optional.of("alice:wrong")).statusCode()).isEqualTo(401);
        assertThat(post(managementPort, "/actuator/gc", collect, Optional.of("alice:alice-secret")).statusCode()).isEqualTo(403);
        assertThat(post(managementPort, "/actuator/gc", collect, Optional.of("olga:olga-secret")).statusCode()).isEqualTo(200);
        assertThat(get(managementPort, "/actuator/dedup", Optional.empty()).statusCode()).isEqualTo(401);
        assertThat(get(managementPort, "/actuator/dedup", Optional.of("olga:olga-secret")).statusCode()).isEqualTo(200);
        assertThat(get(managementPort, "/actuator/usage", Optional.empty()).statusCode()).isEqualTo(401);
        assertThat(get(managementPort, "/actuator/usage", Optional.of("alice:alice-secret")).statusCode()).isEqualTo(403);
        assertThat(get(managementPort, "/actuator/usage", Optional.of("olga:olga-secret")).statusCode()).isEqualTo(200);
        assertThat(get(managementPort, "/actuator/operator", Optional.empty()).statusCode()).isEqualTo(401);
        assertThat(get(managementPort, "/actuator/operator", Optional.of("olga:olga-secret")).statusCode()).isEqualTo(200);
    }

    @Test
    void healthAndMetricsStayOpen() throws Exception {
        assertThat(get(managementPort, "/actuator/health/readiness", Optional.empty()).statusCode()).isEqualTo(200);
        assertThat(get(managementPort, "/actuator/prometheus", Optional.empty()).statusCode()).isEqualTo(200);
    }

    @Test
    void theRegistryPortAnswersByItsOwnRulesNotTheAdminGrant() throws Exception {
        assertThat(get(port, "/v2/", Optional.of("alice:alice-secret")).statusCode()).isEqualTo(200);
        assertThat(get(port, "/v2/", Optional.empty()).statusCode()).isEqualTo(401);
        assertThat(get(port, "/actuator/gc", Optional.of("olga:olga-secret")).statusCode()).isEqualTo(404);
    }

    private HttpResponse<String> get(int port, String path, Optional<String> credentials) throws Exception {
        return send(port, path, credentials, HttpRequest.newBuilder().GET());
    }

    private HttpResponse<String> post(int port, String path, String body, Optional<String> credentials) throws Exception {
        return send(port, path, credentials, HttpRequest.newBuilder().header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private HttpResponse<String> send(int port, String path, Optional<String> credentials, HttpRequest.Builder request)
            throws Exception {
        credentials.ifPresent(userAndPassword -> request.header("Authorization", "Basic "
                + Base64.getEncoder().encodeToString(userAndPassword.getBytes(StandardCharsets.UTF_8))));
        return http.send(request.uri(URI.create("http://localhost:" + port + path)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
