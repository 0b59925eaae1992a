package dev.layerfold.e2e.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.e2e.process.LayerfoldProcess;
import dev.layerfold.e2e.process.RegistryProcess;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.security.crypto.bcrypt.BCrypt;

/**
 * The {@link AuthorizationTable} against the packaged registry in {@code token} and {@code basic} mode,
 * one registry process per mode reused for every cell: every route of both ports, every kind of caller,
 * the status the table expects. Before the cells, the routes the registry actually serves are
 * enumerated ({@link RouteEnumeration}) and must all have rows. Every denial of a request on
 * {@code matrix/app} must read exactly as the same request on {@code matrix/absent}, which does not exist.
 * Subclasses choose the storage backend.
 */
abstract class AuthorizationMatrixContract {

    private static final Path LOGS = Path.of("target", "registry-logs");

    @TempDir
    Path work;

    /** The storage properties of the backend the registry runs on. */
    abstract Map<String, String> backend();

    @ParameterizedTest(name = "{0} mode")
    @ValueSource(strings = {"token", "basic"})
    void everyRouteOfBothPortsAnswersEveryKindOfCallerAsTheTableSays(String mode) throws Exception {
        MatrixTokens tokens = new MatrixTokens(work);
        List<AuthorizationTable.Row> rows = AuthorizationTable.rows();
        long started = System.nanoTime();
        try (RegistryProcess registry = LayerfoldProcess.start("256m", work.resolve("data"), LOGS,
                List.of("-XX:TieredStopAtLevel=1"), properties(mode, tokens))) {
            MatrixClient client = new MatrixClient(registry, mode, tokens);
            MatrixFixture fixture = new MatrixFixture(registry.baseUri(), CallerKind.PUSH.user(), CallerKind.PUSH.password());
            new RouteEnumeration(registry, client, rows).assertEveryServedRouteHasARow();

            MatrixRequests requests = new MatrixRequests(fixture);
            List<String> wrong = new ArrayList<>();
            int cells = 0;
            for (AuthorizationTable.Row row : rows) {
                for (CallerKind caller : CallerKind.values()) {
                    cells++;
                    MatrixRequest request = requests.of(row);
                    HttpResponse<String> response = client.send(caller, request);
                    int expected = row.expected(caller, mode);
                    if (response.statusCode() != expected) {
                        wrong.add(row + " as " + caller + ": expected " + expected + ", got " + response.statusCode()
                                + " " + abbreviate(response.body()));
                    } else if ((expected == 401 || expected == 403) && request.path().startsWith("/v2/" + MatrixFixture.REPOSITORY + "/")) {
                        revealsNothing(client, caller, request, response).ifPresent(wrong::add);
                    }
                }
            }
            System.out.printf("authorization matrix, %s mode on %s: %d rows x %d callers = %d cells in %.1f s%n", mode,
                    backend().isEmpty() ? "embedded" : "S3 + Redis", rows.size(), CallerKind.values().length, cells,
                    (System.nanoTime() - started) / 1e9);
            assertThat(wrong).as("cells that answered otherwise than the table (log %s)", registry.log()).isEmpty();
        }
    }

    /** The same request on a repository that does not exist must be refused in the same words. */
    private static java.util.Optional<String> revealsNothing(MatrixClient client, CallerKind caller, MatrixRequest request,
                                                             HttpResponse<String> onExisting) throws Exception {
        HttpResponse<String> onAbsent = client.send(caller, request.onRepository(MatrixFixture.REPOSITORY, MatrixFixture.ABSENT));
        String existing = onExisting.statusCode() + " " + onExisting.headers().firstValue("WWW-Authenticate").orElse("")
                + " " + onExisting.body();
        String absent = (onAbsent.statusCode() + " " + onAbsent.headers().firstValue("WWW-Authenticate").orElse("")
                + " " + onAbsent.body()).replace(MatrixFixture.ABSENT, MatrixFixture.REPOSITORY);
        return existing.equals(absent) ? java.util.Optional.empty()
                : java.util.Optional.of(request.method() + " " + request.path() + " as " + caller
                        + " tells an existing repository from an absent one: " + existing + " | " + absent);
    }

    private Map<String, String> properties(String mode, MatrixTokens tokens) throws Exception {
        StringBuilder htpasswd = new StringBuilder();
        for (String user : List.of("nogrants", "puller", "pusher", "deleter", "admin")) {
            htpasswd.append(user).append(':').append(BCrypt.hashpw(user + "-secret", BCrypt.gensalt(4))).append('\n');
        }
        Map<String, String> properties = new HashMap<>(backend());
        properties.putAll(Map.of(
                "layerfold.auth.mode", mode,
                "layerfold.auth.htpasswd", Files.writeString(work.resolve("htpasswd"), htpasswd).toString(),
                "layerfold.auth.signing-key", tokens.signingKeyFile().toString()));
        rule(properties, 0, "matrix/*", "puller", "pull");
        rule(properties, 1, "matrix/*", "pusher", "pull,push");
        rule(properties, 2, "matrix/*", "deleter", "pull,delete");
        rule(properties, 3, "*", "admin", "admin");
        // No collection, sweep or dedup of its own while the cells run: every cell meets the fixture as pushed.
        properties.put("layerfold.gc.interval", "0s");
        return properties;
    }

    private static void rule(Map<String, String> properties, int index, String repositories, String user, String actions) {
        String prefix = "layerfold.auth.access[" + index + "].";
        properties.put(prefix + "repositories[0]", repositories);
        properties.put(prefix + "users[0]", user);
        properties.put(prefix + "actions", actions);
    }

    private static String abbreviate(String body) {
        return body.length() > 300 ? body.substring(0, 300) + "..." : body;
    }
}
