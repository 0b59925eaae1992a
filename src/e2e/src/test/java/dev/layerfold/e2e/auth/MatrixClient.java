package dev.layerfold.e2e.auth;

import dev.layerfold.e2e.process.RegistryProcess;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.json.JsonMapper;

/**
 * Sends a row's request as a kind of caller would. Signed-in callers in {@code token} mode do what
 * Docker clients do: try without credentials, take the challenge's scope to the token endpoint with
 * their password, and send the token; in {@code basic} mode they send their password. The management
 * port is sent the password (basic mode) or a token the endpoint issued for no scope (token mode).
 * A wrong password is sent as Basic credentials, and the tokens of {@link MatrixTokens} as they are.
 */
final class MatrixClient {

    private static final Pattern PARAMETER = Pattern.compile("(\\w+)=\"([^\"]*)\"");

    private final RegistryProcess registry;
    private final String mode;
    private final MatrixTokens tokens;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    MatrixClient(RegistryProcess registry, String mode, MatrixTokens tokens) {
        this.registry = registry;
        this.mode = mode;
        this.tokens = tokens;
    }

    HttpResponse<String> send(CallerKind caller, MatrixRequest request) throws IOException, InterruptedException {
        if (request.path().equals("/token") && request.method().equals("POST")) {
            return passwordGrant(caller);
        }
        if (caller == CallerKind.ANONYMOUS) {
            return send(request, Optional.empty());
        }
        if (caller.sendsOwnToken()) {
            return send(request, Optional.of("Bearer " + tokens.of(caller)));
        }
        if (mode.equals("basic") || caller == CallerKind.BAD_PASSWORD || request.path().startsWith("/token")) {
            return send(request, Optional.of(basic(caller)));
        }
        if (request.plane() == AuthorizationTable.Plane.MGMT) {
            return send(request, Optional.of("Bearer " + token(caller, Optional.empty())));
        }
        HttpResponse<String> challenged = send(request, Optional.empty());
        Optional<String> challenge = challenged.headers().firstValue("WWW-Authenticate");
        if (challenged.statusCode() != 401 || challenge.isEmpty() || !challenge.get().startsWith("Bearer ")) {
            return challenged;
        }
        Map<String, String> parameters = parameters(challenge.get());
        return send(request, Optional.of("Bearer " + token(caller, Optional.ofNullable(parameters.get("scope")))));
    }

    private HttpResponse<String> passwordGrant(CallerKind caller) throws IOException, InterruptedException {
        String form = "grant_type=password&service=layerfold&scope=" + encode("repository:" + MatrixFixture.REPOSITORY + ":pull");
        if (caller.signsInWithPassword()) {
            form += "&username=" + encode(caller.user()) + "&password=" + encode(caller.password());
        }
        HttpRequest.Builder builder = HttpRequest.newBuilder(registry.baseUri().resolve("/token"))
                .header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(form));
        if (caller.sendsOwnToken()) {
            builder.header("Authorization", "Bearer " + tokens.of(caller));
        }
        return http.send(builder.build(), HttpResponse.BodyHandlers.ofString());
    }

    private String token(CallerKind caller, Optional<String> scope) throws IOException, InterruptedException {
        String query = "?service=layerfold" + scope.map(s -> "&scope=" + encode(s)).orElse("");
        HttpResponse<String> issued = http.send(HttpRequest.newBuilder(registry.baseUri().resolve("/token" + query))
                .header("Authorization", basic(caller)).GET().build(), HttpResponse.BodyHandlers.ofString());
        if (issued.statusCode() != 200) {
            throw new IllegalStateException("the token endpoint refused " + caller + " a token for " + scope + ": "
                    + issued.statusCode() + " " + issued.body());
        }
        return JsonMapper.builder().build().readTree(issued.body()).path("token").asString();
    }

    private HttpResponse<String> send(MatrixRequest request, Optional<String> authorization) throws IOException, InterruptedException {
        URI base = request.plane() == AuthorizationTable.Plane.API ? registry.baseUri() : registry.managementUri();
        HttpRequest.Builder builder = HttpRequest.newBuilder(base.resolve(request.path())).timeout(Duration.ofSeconds(60))
                .method(request.method(), request.body().length == 0 ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(request.body()));
        request.headers().forEach(builder::header);
        authorization.ifPresent(value -> builder.header("Authorization", value));
        return http.send(builder.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String basic(CallerKind caller) {
        return "Basic " + Base64.getEncoder().encodeToString((caller.user() + ":" + caller.password()).getBytes(StandardCharsets.UTF_8));
    }

    private static Map<String, String> parameters(String challenge) {
        Map<String, String> parameters = new java.util.HashMap<>();
        Matcher matcher = PARAMETER.matcher(challenge);
        while (matcher.find()) {
            parameters.put(matcher.group(1), matcher.group(2));
        }
        return parameters;
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
