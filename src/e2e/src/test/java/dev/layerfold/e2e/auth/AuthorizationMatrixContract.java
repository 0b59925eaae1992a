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
import java.util.Optional;
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
 * Afterwards no secret the run configured or sent (a password, the S3 keys, a token, the signing key)
 * may appear in the registry's log or in a response body (but the token endpoint's own answers).
 * Subclasses choose the storage backend.
 */
abstract class AuthorizationMatrixContract {

    private static final Path LOGS = Path.of("target", "registry-logs");

    @TempDir
    Path work;

    private Map<String, String> backend;

    /** The storage properties of the backend the registry runs on. */
    abstract Map<String, String> backend();

    @ParameterizedTest(name = "{0} mode")
    @ValueSource(strings = {"token", "basic"})
    void everyRouteOfBothPortsAnswersEveryKindOfCallerAsTheTableSays(String mode) throws Exception {
        backend = backend();
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
            List<String> bodies = new ArrayList<>();
            int cells = 0;
            for (AuthorizationTable.Row row : rows) {
                for (CallerKind caller : CallerKind.values()) {
                    cells++;
                    MatrixRequest request = requests.of(row);
                    HttpResponse<String> response = client.send(caller, request);
                    if (!request.path().startsWith("/token")) {
                        bodies.add(row + " as " + caller + ": " + response.headers().map() + " " + response.body());
                    }
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
                    backend.isEmpty() ? "embedded" : "S3 + Redis", rows.size(), CallerKind.values().length, cells,
                    (System.nanoTime() - started) / 1e9);
            assertThat(wrong).as("cells that answered otherwise than the table (log %s)", registry.log()).isEmpty();
            registry.close();
            assertNoSecretIn(Files.readString(registry.log()), bodies, tokens);
        }
    }

    /** The same request on a repository that does not exist must be refused in the same words. */
    private static Optional<String> revealsNothing(MatrixClient client, CallerKind caller, MatrixRequest request,
                                                             HttpResponse<String> onExisting) throws Exception {
        HttpResponse<String> onAbsent = client.send(caller, request.onRepository(MatrixFixture.REPOSITORY, MatrixFixture.ABSENT));
        String existing = onExisting.statusCode() + " " + onExisting.headers().firstValue("WWW-Authenticate").orElse("")
                + " " + onExisting.body();
        String absent = (onAbsent.statusCode() + " " + onAbsent.headers().firstValue("WWW-Authenticate").orElse("")
                + " " + onAbsent.body()).replace(MatrixFixture.ABSENT, MatrixFixture.REPOSITORY);
        return existing.equals(absent) ? Optional.empty()
                : Optional.of(request.method() + " " + request.path() + " as " + caller
                        + " tells an existing repository from an absent one: " + existing + " | " + absent);
    }

    private void assertNoSecretIn(String log, List<String> bodies, MatrixTokens tokens) {
        List<String> secrets = new ArrayList<>();
        for (CallerKind caller : CallerKind.values()) {
            if (caller.signsInWithPassword()) {
                secrets.add(caller.password());
            }
        }
        secrets.add(tokens.of(CallerKind.EXPIRED_TOKEN).substring(0, 40));
        secrets.add(tokens.of(CallerKind.FOREIGN_TOKEN).substring(0, 40));
        secrets.add(tokens.signingKeyBase64().substring(40, 80));
        for (String key : List.of("layerfold.storage.s3.access-key", "layerfold.storage.s3.secret-key")) {
            if (backend.containsKey(key)) {
                secrets.add(backend.get(key));
            }
        }
        for (String secret : secrets) {
            assertThat(log).as("the registry's log names the secret '%s'", secret).doesNotContain(secret);
            assertThat(bodies).as("a response names the secret '%s'", secret).noneMatch(body -> body.contains(secret));
        }
    }

    private Map<String, String> properties(String mode, MatrixTokens tokens) throws Exception {
        StringBuilder htpasswd = new StringBuilder();
        for (String user : List.of("nogrants", "puller", "pusher", "deleter", "admin")) {
            htpasswd.append(user).append(':').append(BCrypt.hashpw(user + "-secret", BCrypt.gensalt(4))).append('\n');
        }
        Map<String, String> properties = new HashMap<>(backend);
        properties.putAll(Map.of(
                "layerfold.auth.mode", mode,
                "layerfold.auth.htpasswd", Files.writeString(work.resolve("htpasswd"), htpasswd).toString(),
                "layerfold.auth.signing-key", tokens.signingKeyFile().toString()));
        rule(properties, 0, "matrix/*", "puller", "pull");
        rule(properties, 1, "matrix/*", "pusher", "pull,push");
        rule(properties, 2, "matrix/*", "deleter", "pull,delete");
        rule(properties, 3, "*", "admin", "admin");
        // The wrong-password column fails some 60 times from one address: above the limit of failed
        // sign-ins, which has its own test (FailedSignInLimitTest); here every cell must see the rules.
        properties.put("layerfold.auth.failed-sign-ins.per-user", "1000");
        properties.put("layerfold.auth.failed-sign-ins.per-address", "1000");
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
