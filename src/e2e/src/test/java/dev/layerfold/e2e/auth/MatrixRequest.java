package dev.layerfold.e2e.auth;

import java.util.Map;

/** One concrete request of a row: path (with query), headers, body; on the registry or the management port. */
record MatrixRequest(AuthorizationTable.Plane plane, String method, String path, Map<String, String> headers, byte[] body) {

    static MatrixRequest api(String method, String path) {
        return new MatrixRequest(AuthorizationTable.Plane.API, method, path, Map.of(), new byte[0]);
    }

    static MatrixRequest management(String method, String path) {
        return new MatrixRequest(AuthorizationTable.Plane.MGMT, method, path, Map.of(), new byte[0]);
    }

    MatrixRequest withBody(String contentType, byte[] bytes) {
        return new MatrixRequest(plane, method, path, Map.of("Content-Type", contentType), bytes);
    }

    /** The same request on another repository: what a denial must not tell apart. */
    MatrixRequest onRepository(String from, String to) {
        return new MatrixRequest(plane, method, path.replace("/v2/" + from + "/", "/v2/" + to + "/")
                .replace("repository:" + from + ":", "repository:" + to + ":"), headers, body);
    }
}
