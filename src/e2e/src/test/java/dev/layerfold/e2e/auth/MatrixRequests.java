package dev.layerfold.e2e.auth;

import dev.layerfold.e2e.blob.Sha256;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** What each {@code request} name of {@link AuthorizationTable} sends, on the fixture's repository. */
final class MatrixRequests {

    private static final String JSON = "application/json";

    private final MatrixFixture fixture;

    MatrixRequests(MatrixFixture fixture) {
        this.fixture = fixture;
    }

    /** The request of {@code row}, with fresh objects where the row deletes or writes. */
    MatrixRequest of(AuthorizationTable.Row row) throws IOException, InterruptedException {
        String repository = "/v2/" + MatrixFixture.REPOSITORY;
        String method = row.sentMethod();
        return switch (row.request()) {
            case "base" -> MatrixRequest.api(method, "/v2/");
            case "catalog" -> MatrixRequest.api(method, "/v2/_catalog");
            case "tags" -> MatrixRequest.api(method, repository + "/tags/list");
            case "manifest" -> MatrixRequest.api(method, repository + "/manifests/" + MatrixFixture.TAG);
            case "manifest-push" -> MatrixRequest.api(method, repository + "/manifests/pushed-by-matrix")
                    .withBody("application/vnd.oci.image.manifest.v1+json", fixture.manifestBytes());
            case "manifest-fresh" -> MatrixRequest.api(method, repository + "/manifests/" + fixture.freshManifest());
            case "blob" -> MatrixRequest.api(method, repository + "/blobs/" + fixture.layerDigest());
            case "blob-fresh" -> MatrixRequest.api(method, repository + "/blobs/" + fixture.freshBlob());
            case "upload-start" -> MatrixRequest.api(method, repository + "/blobs/uploads/");
            case "upload" -> MatrixRequest.api(method, fixture.freshUpload());
            case "upload-chunk" -> MatrixRequest.api(method, fixture.freshUpload())
                    .withBody("application/octet-stream", "a chunk".getBytes(StandardCharsets.UTF_8));
            case "upload-close" -> {
                byte[] blob = "a whole blob in the closing request".getBytes(StandardCharsets.UTF_8);
                yield MatrixRequest.api(method, fixture.freshUpload() + "?digest=" + Sha256.of(blob))
                        .withBody("application/octet-stream", blob);
            }
            case "referrers" -> MatrixRequest.api(method, repository + "/referrers/" + fixture.manifestDigest());
            case "token" -> MatrixRequest.api(method, "/token?service=layerfold&scope=repository:"
                    + MatrixFixture.REPOSITORY + ":pull");
            // The password form is filled in by the client for callers that have one.
            case "token-password" -> MatrixRequest.api(method, "/token");
            case "error" -> MatrixRequest.api(method, "/error");
            case "actuator" -> MatrixRequest.management(method, "/actuator");
            case "health" -> MatrixRequest.management(method, "/actuator/health");
            case "liveness" -> MatrixRequest.management(method, "/actuator/health/liveness");
            case "readiness" -> MatrixRequest.management(method, "/actuator/health/readiness");
            case "prometheus" -> MatrixRequest.management(method, "/actuator/prometheus");
            case "gc", "dedup", "mappings", "usage", "operator", "mirror" -> MatrixRequest.management(method, "/actuator/" + row.request());
            case "usage-repository" -> MatrixRequest.management(method, "/actuator/usage/" + MatrixFixture.REPOSITORY);
            case "gc-collect" -> gc("{\"action\":\"collect\"}");
            case "gc-check" -> gc("{\"action\":\"check\"}");
            case "gc-repair" -> gc("{\"action\":\"check\",\"repair\":true}");
            case "gc-retention-dry" -> gc("{\"action\":\"retention\",\"dryRun\":true}");
            case "gc-retention" -> gc("{\"action\":\"retention\"}");
            case "dedup-settle" -> MatrixRequest.management(method, "/actuator/dedup")
                    .withBody(JSON, "{\"timeoutSeconds\":1}".getBytes(StandardCharsets.UTF_8));
            case "dedup-backfill" -> MatrixRequest.management(method, "/actuator/dedup/backfill")
                    .withBody(JSON, "{}".getBytes(StandardCharsets.UTF_8));
            default -> throw new IllegalStateException("no request named '" + row.request() + "' for " + row);
        };
    }

    /** A path of the row's route that needs nothing made first (the route enumeration's probe). */
    static String ofPathOnly(AuthorizationTable.Row row) {
        String repository = "/v2/" + MatrixFixture.REPOSITORY;
        String digest = "sha256:" + "0".repeat(64);
        return switch (row.pattern()) {
            case "/v2/{name}/blobs/{digest}" -> repository + "/blobs/" + digest;
            case "/v2/{name}/blobs/uploads/{id}" -> repository + "/blobs/uploads/no-such-upload";
            case "/v2/{name}/manifests/{reference}" -> repository + "/manifests/" + MatrixFixture.TAG;
            case "/v2/{name}/referrers/{digest}" -> repository + "/referrers/" + digest;
            case "/actuator/usage/{*name}" -> "/actuator/usage/" + MatrixFixture.REPOSITORY;
            default -> row.pattern().replace("{name}", MatrixFixture.REPOSITORY);
        };
    }

    private static MatrixRequest gc(String body) {
        return MatrixRequest.management("POST", "/actuator/gc").withBody(JSON, body.getBytes(StandardCharsets.UTF_8));
    }
}
