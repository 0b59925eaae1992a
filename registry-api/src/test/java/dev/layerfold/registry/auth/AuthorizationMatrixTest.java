package dev.layerfold.registry.auth;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.jwk.ECKey;
import dev.layerfold.registry.RegistryHttpTest;
import dev.layerfold.storage.Digest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.security.crypto.bcrypt.BCrypt;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Every endpoint of a repository against every kind of caller that must be turned away, and one that
 * may: only the valid token succeeds, and what a refused request would have changed stays unchanged.
 */
class AuthorizationMatrixTest extends RegistryHttpTest {

    static final ECKey EXTERNAL_ISSUER;
    static final ECKey UNTRUSTED;
    static final Path CONFIG_DIRECTORY;

    static {
        try {
            EXTERNAL_ISSUER = AuthTestKeys.newKey();
            UNTRUSTED = AuthTestKeys.newKey();
            CONFIG_DIRECTORY = Files.createTempDirectory("layerfold-auth-test");
            Files.writeString(CONFIG_DIRECTORY.resolve("htpasswd"), String.join("\n",
                    "alice:" + BCrypt.hashpw("alice-secret", BCrypt.gensalt(4)),
                    "bob:" + BCrypt.hashpw("bob-secret", BCrypt.gensalt(4)),
                    "carol:" + BCrypt.hashpw("carol-secret", BCrypt.gensalt(4))) + "\n");
            AuthTestKeys.writePublicPem(EXTERNAL_ISSUER, CONFIG_DIRECTORY.resolve("issuer.pem"));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @DynamicPropertySource
    static void auth(DynamicPropertyRegistry properties) {
        properties.add("layerfold.auth.mode", () -> "token");
        properties.add("layerfold.auth.htpasswd", () -> CONFIG_DIRECTORY.resolve("htpasswd").toString());
        properties.add("layerfold.auth.key-files[0]", () -> CONFIG_DIRECTORY.resolve("issuer.pem").toString());
        properties.add("layerfold.auth.groups.team-a[0]", () -> "alice");
        properties.add("layerfold.auth.access[0].repositories[0]", () -> "team-a/*");
        properties.add("layerfold.auth.access[0].groups[0]", () -> "team-a");
        properties.add("layerfold.auth.access[0].actions", () -> "pull,push,delete");
        properties.add("layerfold.auth.access[1].repositories[0]", () -> "team-a/*");
        properties.add("layerfold.auth.access[1].users[0]", () -> "bob");
        properties.add("layerfold.auth.access[1].actions", () -> "pull");
        properties.add("layerfold.auth.access[2].repositories[0]", () -> "public/*");
        properties.add("layerfold.auth.access[2].users[0]", () -> "anonymous");
        properties.add("layerfold.auth.access[2].actions", () -> "pull");
        properties.add("layerfold.auth.access[3].repositories[0]", () -> "public/*");
        properties.add("layerfold.auth.access[3].users[0]", () -> "alice");
        properties.add("layerfold.auth.access[3].actions", () -> "push");
    }

    private String repository;
    private String aliceToken;
    private Digest blob;
    private Digest manifest;
    private String upload;

    @BeforeEach
    void pushAsAlice() throws Exception {
        repository = uniqueRepository("team-a/app");
        aliceToken = issuedToken("alice:alice-secret", repository, "pull,push,delete");
        blob = Digest.sha256("config".getBytes(StandardCharsets.UTF_8));
        assertThat(as(aliceToken, request("POST", "/v2/" + repository + "/blobs/uploads/?digest=" + blob)).body("config").send()
                .statusCode()).isEqualTo(201);
        byte[] image = imageManifest(blob, 6);
        HttpResponse<byte[]> pushed = as(aliceToken, request("PUT", "/v2/" + repository + "/manifests/v1"))
                .header("Content-Type", OCI_MANIFEST).body(image).send();
        assertThat(pushed.statusCode()).as(text(pushed)).isEqualTo(201);
        manifest = Digest.sha256(image);
        upload = as(aliceToken, request("POST", "/v2/" + repository + "/blobs/uploads/")).send().headers()
                .firstValue("Location").orElseThrow();
    }

    @Test
    void pullEndpointsServeOnlyAValidToken() throws Exception {
        String name = "/v2/" + repository;
        expectOnlyValidTokenSucceeds("HEAD blob", () -> request("HEAD", name + "/blobs/" + blob), 200, unchanged());
        expectOnlyValidTokenSucceeds("GET blob", () -> request("GET", name + "/blobs/" + blob), 200, unchanged());
        expectOnlyValidTokenSucceeds("GET manifest", () -> request("GET", name + "/manifests/v1").header("Accept", OCI_MANIFEST), 200, unchanged());
        expectOnlyValidTokenSucceeds("HEAD manifest", () -> request("HEAD", name + "/manifests/" + manifest).header("Accept", OCI_MANIFEST), 200, unchanged());
        expectOnlyValidTokenSucceeds("GET tags", () -> request("GET", name + "/tags/list"), 200, unchanged());
        expectOnlyValidTokenSucceeds("GET referrers", () -> request("GET", name + "/referrers/" + manifest), 200, unchanged());
        expectOnlyValidTokenSucceeds("GET upload", () -> request("GET", upload), 204, unchanged());
    }

    @Test
    void pushEndpointsServeOnlyAValidTokenAndRefusedOnesStoreNothing() throws Exception {
        String name = "/v2/" + repository;
        byte[] layer = "layer".getBytes(StandardCharsets.UTF_8);
        Digest layerDigest = Digest.sha256(layer);
        expectOnlyValidTokenSucceeds("POST upload", () -> request("POST", name + "/blobs/uploads/"), 202, unchanged());
        expectOnlyValidTokenSucceeds("POST whole blob", () -> request("POST", name + "/blobs/uploads/?digest=" + layerDigest).body(layer),
                201, absent(name + "/blobs/" + layerDigest));
        expectOnlyValidTokenSucceeds("PATCH upload", () -> request("PATCH", upload).header("Content-Type", "application/octet-stream")
                .body("x"), 202, uploadIsEmpty());
        expectOnlyValidTokenSucceeds("PUT manifest", () -> request("PUT", name + "/manifests/v2").header("Content-Type", OCI_MANIFEST)
                .body(imageManifest(blob, 6)), 201, absent(name + "/manifests/v2"));
        byte[] last = "last".getBytes(StandardCharsets.UTF_8);
        String another = as(aliceToken, request("POST", name + "/blobs/uploads/")).send().headers().firstValue("Location").orElseThrow();
        expectOnlyValidTokenSucceeds("PUT upload", () -> request("PUT", another + "?digest=" + Digest.sha256(last)).body(last), 201,
                absent(name + "/blobs/" + Digest.sha256(last)));
    }

    @Test
    void deleteEndpointsServeOnlyAValidTokenAndRefusedOnesDeleteNothing() throws Exception {
        String name = "/v2/" + repository;
        expectOnlyValidTokenSucceeds("DELETE upload", () -> request("DELETE", upload), 204, present(upload));
        expectOnlyValidTokenSucceeds("DELETE tag", () -> request("DELETE", name + "/manifests/v1"), 202, present(name + "/manifests/v1"));
        expectOnlyValidTokenSucceeds("DELETE manifest", () -> request("DELETE", name + "/manifests/" + manifest), 202,
                present(name + "/manifests/" + manifest));
        expectOnlyValidTokenSucceeds("DELETE blob", () -> request("DELETE", name + "/blobs/" + blob), 202, present(name + "/blobs/" + blob));
    }

    @Test
    void refusalsSayHowToSignInAndNeverWhetherTheRepositoryExists() throws Exception {
        HttpResponse<byte[]> existing = request("GET", "/v2/" + repository + "/tags/list").send();
        HttpResponse<byte[]> missing = request("GET", "/v2/" + uniqueRepository("team-a/none") + "/tags/list").send();
        HttpResponse<byte[]> carolExisting = as("Basic " + basic("carol:carol-secret"), request("GET", "/v2/" + repository + "/tags/list")).send();
        HttpResponse<byte[]> carolMissing = as("Basic " + basic("carol:carol-secret"),
                request("GET", "/v2/" + uniqueRepository("team-a/none") + "/tags/list")).send();

        assertThat(existing.statusCode()).isEqualTo(401);
        assertThat(errorCode(existing)).isEqualTo("UNAUTHORIZED");
        assertThat(existing.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(challenge -> assertThat(challenge)
                .startsWith("Bearer realm=\"http://localhost:" + port + "/token\",service=\"layerfold\"")
                .contains("scope=\"repository:" + repository + ":pull\""));
        assertThat(missing.statusCode()).isEqualTo(401);
        assertThat(carolExisting.statusCode()).isEqualTo(403);
        assertThat(errorCode(carolExisting)).isEqualTo("DENIED");
        assertThat(carolMissing.statusCode()).isEqualTo(403);
        assertThat(new String(carolMissing.body(), StandardCharsets.UTF_8).replaceAll("team-a/none-\\w+", "R"))
                .isEqualTo(new String(carolExisting.body(), StandardCharsets.UTF_8).replace(repository, "R"));
    }

    @Test
    void theBaseEndpointNeedsASignedInCaller() throws Exception {
        assertThat(request("GET", "/v2/").send().statusCode()).isEqualTo(401);
        assertThat(as("Basic " + basic("alice:wrong"), request("GET", "/v2/")).send().statusCode()).isEqualTo(401);
        assertThat(as("Basic " + basic("carol:carol-secret"), request("GET", "/v2/")).send().statusCode()).isEqualTo(200);
        assertThat(as(aliceToken, request("GET", "/v2/")).send().statusCode()).isEqualTo(200);
    }

    @Test
    void aTokenOfTheExternalIssuerIsAcceptedAndBasicCredentialsWorkDirectly() throws Exception {
        String external = "Bearer " + AuthTestKeys.token(EXTERNAL_ISSUER, "layerfold", "layerfold", "dave", Instant.now().plusSeconds(300),
                List.of(AuthTestKeys.repositoryAccess(repository, "pull")));

        assertThat(as(external, request("GET", "/v2/" + repository + "/tags/list")).send().statusCode()).isEqualTo(200);
        assertThat(as("Basic " + basic("alice:alice-secret"), request("GET", "/v2/" + repository + "/tags/list")).send().statusCode())
                .isEqualTo(200);
        assertThat(as("Basic " + basic("bob:bob-secret"), request("GET", "/v2/" + repository + "/tags/list")).send().statusCode())
                .isEqualTo(200);
        assertThat(as("Basic " + basic("bob:bob-secret"), request("POST", "/v2/" + repository + "/blobs/uploads/")).send().statusCode())
                .isEqualTo(403);
    }

    @Test
    void theTokenEndpointGrantsOnlyWhatTheRulesAllow() throws Exception {
        String bobToken = issuedToken("bob:bob-secret", repository, "pull,push");

        HttpResponse<byte[]> push = as(bobToken, request("POST", "/v2/" + repository + "/blobs/uploads/")).send();

        assertThat(as(bobToken, request("GET", "/v2/" + repository + "/tags/list")).send().statusCode()).isEqualTo(200);
        assertThat(push.statusCode()).isEqualTo(401);
        assertThat(push.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(challenge -> assertThat(challenge)
                .contains("scope=\"repository:" + repository + ":pull,push\"").contains("error=\"insufficient_scope\""));
        assertThat(request("GET", "/token?service=layerfold&scope=repository:" + repository + ":pull")
                .header("Authorization", "Basic " + basic("alice:wrong")).send().statusCode()).isEqualTo(401);
    }

    @Test
    void anonymousCallersMayPullWhereARuleSaysSoAndNothingElse() throws Exception {
        String publicRepository = uniqueRepository("public/tools");
        String aliceBasic = "Basic " + basic("alice:alice-secret");
        Digest digest = Digest.sha256("public".getBytes(StandardCharsets.UTF_8));
        assertThat(as(aliceBasic, request("POST", "/v2/" + publicRepository + "/blobs/uploads/?digest=" + digest)).body("public").send()
                .statusCode()).isEqualTo(201);
        String anonymousToken = "Bearer " + jsonBody(request("GET", "/token?service=layerfold&scope=repository:" + publicRepository
                + ":pull,push").send()).get("token").stringValue();

        assertThat(request("GET", "/v2/" + publicRepository + "/blobs/" + digest).send().statusCode()).isEqualTo(200);
        assertThat(as(anonymousToken, request("GET", "/v2/" + publicRepository + "/blobs/" + digest)).send().statusCode()).isEqualTo(200);
        assertThat(request("POST", "/v2/" + publicRepository + "/blobs/uploads/").send().statusCode()).isEqualTo(401);
        assertThat(as(anonymousToken, request("POST", "/v2/" + publicRepository + "/blobs/uploads/")).send().statusCode()).isEqualTo(401);
    }

    @Test
    void theCatalogListsOnlyWhatTheCallerMayPull() throws Exception {
        String hidden = uniqueRepository("team-b/secret");
        String publicRepository = uniqueRepository("public/listed");
        String aliceBasic = "Basic " + basic("alice:alice-secret");
        // Nobody may push to team-b through the API, so its repository is made by an external issuer's token.
        String teamB = "Bearer " + AuthTestKeys.token(EXTERNAL_ISSUER, "layerfold", "layerfold", "erin", Instant.now().plusSeconds(300),
                List.of(AuthTestKeys.repositoryAccess(hidden, "push")));
        assertThat(as(teamB, request("POST", "/v2/" + hidden + "/blobs/uploads/?digest=" + blob)).body("config").send().statusCode())
                .isEqualTo(201);
        assertThat(as(aliceBasic, request("POST", "/v2/" + publicRepository + "/blobs/uploads/?digest=" + blob)).body("config").send()
                .statusCode()).isEqualTo(201);

        List<String> alice = catalog(aliceBasic);
        List<String> carol = catalog("Basic " + basic("carol:carol-secret"));
        String carolToken = issuedToken("carol:carol-secret", repository, "pull");

        assertThat(alice).contains(repository, publicRepository).doesNotContain(hidden);
        assertThat(carol).contains(publicRepository).doesNotContain(repository, hidden);
        assertThat(catalog(carolToken)).contains(publicRepository).doesNotContain(repository, hidden);
        assertThat(request("GET", "/v2/_catalog").send().statusCode()).isEqualTo(401);
    }

    @Test
    void aMountNeedsPullOnTheSourceOtherwiseItIsAnUpload() throws Exception {
        String hidden = uniqueRepository("team-b/secret");
        byte[] secret = "secret layer".getBytes(StandardCharsets.UTF_8);
        Digest secretDigest = Digest.sha256(secret);
        String teamB = "Bearer " + AuthTestKeys.token(EXTERNAL_ISSUER, "layerfold", "layerfold", "erin", Instant.now().plusSeconds(300),
                List.of(AuthTestKeys.repositoryAccess(hidden, "push")));
        assertThat(as(teamB, request("POST", "/v2/" + hidden + "/blobs/uploads/?digest=" + secretDigest)).body(secret).send()
                .statusCode()).isEqualTo(201);
        String aliceBasic = "Basic " + basic("alice:alice-secret");
        String target = uniqueRepository("team-a/mounted");

        HttpResponse<byte[]> fromHidden = as(aliceBasic, request("POST", "/v2/" + target + "/blobs/uploads/?mount=" + secretDigest
                + "&from=" + hidden)).send();
        HttpResponse<byte[]> anywhere = as(aliceBasic, request("POST", "/v2/" + target + "/blobs/uploads/?mount=" + secretDigest)).send();
        HttpResponse<byte[]> fromReadable = as(aliceBasic, request("POST", "/v2/" + target + "/blobs/uploads/?mount=" + blob
                + "&from=" + repository)).send();

        assertThat(fromHidden.statusCode()).isEqualTo(202);
        assertThat(anywhere.statusCode()).isEqualTo(202);
        assertThat(as(aliceBasic, request("HEAD", "/v2/" + target + "/blobs/" + secretDigest)).send().statusCode()).isEqualTo(404);
        assertThat(fromReadable.statusCode()).isEqualTo(201);
    }

    /** Checks run after the refused requests: what they would have changed is as it was. */
    private interface StateCheck {
        void verify(String what) throws Exception;
    }

    private interface RequestFactory {
        Request make();
    }

    private void expectOnlyValidTokenSucceeds(String what, RequestFactory factory, int success, StateCheck unchanged) throws Exception {
        for (Map.Entry<String, String> refused : refusedCredentials().entrySet()) {
            Request request = factory.make();
            if (refused.getValue() != null) {
                request.header("Authorization", refused.getValue());
            }
            HttpResponse<byte[]> response = request.send();
            assertThat(response.statusCode()).as(what + " as " + refused.getKey() + ": " + text(response)).isIn(401, 403);
            if (response.body().length > 0) { // HEAD responses carry no body
                assertThat(errorCode(response)).isIn("UNAUTHORIZED", "DENIED");
            }
        }
        unchanged.verify(what);
        HttpResponse<byte[]> valid = as(aliceToken, factory.make()).send();
        assertThat(valid.statusCode()).as(what + " with a valid token: " + text(valid)).isEqualTo(success);
    }

    private Map<String, String> refusedCredentials() throws Exception {
        Instant later = Instant.now().plusSeconds(300);
        List<Map<String, Object>> everything = List.of(AuthTestKeys.repositoryAccess(repository, "pull", "push", "delete"));
        Map<String, String> refused = new LinkedHashMap<>();
        refused.put("anonymous", null);
        refused.put("a wrong password", "Basic " + basic("alice:wrong"));
        refused.put("a user without the permission", "Basic " + basic("carol:carol-secret"));
        refused.put("a token of a user without the permission", issuedToken("carol:carol-secret", repository, "pull,push,delete"));
        refused.put("an expired token", "Bearer " + AuthTestKeys.token(EXTERNAL_ISSUER, "layerfold", "layerfold", "alice",
                Instant.now().minusSeconds(120), everything));
        refused.put("a token for another service", "Bearer " + AuthTestKeys.token(EXTERNAL_ISSUER, "layerfold", "other-registry",
                "alice", later, everything));
        refused.put("a token of another issuer", "Bearer " + AuthTestKeys.token(EXTERNAL_ISSUER, "someone-else", "layerfold",
                "alice", later, everything));
        refused.put("a token with a bad signature", "Bearer " + AuthTestKeys.token(UNTRUSTED, "layerfold", "layerfold", "alice",
                later, everything));
        return refused;
    }

    private String issuedToken(String credentials, String repository, String actions) throws Exception {
        // Unescaped, as clients send it: the commas between actions must not split the scope.
        HttpResponse<byte[]> response = request("GET", "/token?service=layerfold&scope=repository:" + repository + ":" + actions
                + "&scope=registry:catalog:*")
                .header("Authorization", "Basic " + basic(credentials)).send();
        assertThat(response.statusCode()).as(text(response)).isEqualTo(200);
        return "Bearer " + jsonBody(response).get("token").stringValue();
    }

    private List<String> catalog(String authorization) throws Exception {
        HttpResponse<byte[]> response = as(authorization, request("GET", "/v2/_catalog")).send();
        assertThat(response.statusCode()).as(text(response)).isEqualTo(200);
        List<String> names = new ArrayList<>();
        jsonBody(response).get("repositories").forEach(name -> names.add(name.stringValue()));
        return names;
    }

    private Request as(String authorization, Request request) {
        return request.header("Authorization", authorization);
    }

    private static String basic(String credentials) {
        return Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8));
    }

    private StateCheck unchanged() {
        return what -> {
        };
    }

    private StateCheck absent(String path) {
        return what -> assertThat(as(aliceToken, request("HEAD", path).header("Accept", OCI_MANIFEST)).send().statusCode())
                .as(what + " stored nothing").isEqualTo(404);
    }

    private StateCheck present(String path) {
        return what -> assertThat(as(aliceToken, request(path.contains("/uploads/") ? "GET" : "HEAD", path).header("Accept", OCI_MANIFEST))
                .send().statusCode()).as(what + " deleted nothing").isIn(200, 204);
    }

    private StateCheck uploadIsEmpty() {
        return what -> assertThat(as(aliceToken, request("GET", upload)).send().headers().firstValue("Range"))
                .as(what + " appended nothing").hasValue("0-0");
    }
}
