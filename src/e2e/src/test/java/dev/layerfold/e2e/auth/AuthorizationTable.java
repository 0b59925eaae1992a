package dev.layerfold.e2e.auth;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Every route of both ports against every kind of caller, with the status each must get: the one
 * place that says who may do what. {@link AuthorizationMatrixContract} runs it against the packaged
 * registry and fails for a route the registry serves that has no row here.
 *
 * <p>A cell is a status, or {@code token|basic} where the two sign-in modes answer differently, or
 * {@code D}: denied to a signed-in caller, which a password gets as 403 DENIED and a token as 401
 * {@code insufficient_scope} (the client may ask the token endpoint for more). {@code plane} is the
 * registry port ({@code api}) or the management port ({@code mgmt}); {@code pattern} is the route as
 * the registry names it (Route.pathPattern, or the Spring mapping); {@code request} names what
 * {@link MatrixRequests} sends (one route may have several rows, e.g. the actions of POST /actuator/gc).
 * {@code ANY} is a mapping that takes every method (the error page), tried with GET.
 */
final class AuthorizationTable {

    private static final String TABLE = """
            # plane method  pattern                            request             anon  none  pull  push  del   admin bad  expired foreign
            api   GET     /v2/                                 base                401   200   200   200   200   200   401  401  401
            api   HEAD    /v2/                                 base                401   200   200   200   200   200   401  401  401
            api   GET     /v2/_catalog                         catalog             401   200   200   200   200   200   401  401  401
            api   HEAD    /v2/_catalog                         catalog             401   200   200   200   200   200   401  401  401
            api   GET     /v2/{name}/tags/list                 tags                401   D     200   200   200   D     401  401  401
            api   HEAD    /v2/{name}/tags/list                 tags                401   D     200   200   200   D     401  401  401
            api   GET     /v2/{name}/manifests/{reference}     manifest            401   D     200   200   200   D     401  401  401
            api   HEAD    /v2/{name}/manifests/{reference}     manifest            401   D     200   200   200   D     401  401  401
            api   PUT     /v2/{name}/manifests/{reference}     manifest-push       401   D     D     201   D     D     401  401  401
            api   DELETE  /v2/{name}/manifests/{reference}     manifest-fresh      401   D     D     D     202   D     401  401  401
            api   GET     /v2/{name}/blobs/{digest}            blob                401   D     200   200   200   D     401  401  401
            api   HEAD    /v2/{name}/blobs/{digest}            blob                401   D     200   200   200   D     401  401  401
            api   DELETE  /v2/{name}/blobs/{digest}            blob-fresh          401   D     D     D     202   D     401  401  401
            api   POST    /v2/{name}/blobs/uploads/            upload-start        401   D     D     202   D     D     401  401  401
            api   GET     /v2/{name}/blobs/uploads/{id}        upload              401   D     D     204   D     D     401  401  401
            api   PATCH   /v2/{name}/blobs/uploads/{id}        upload-chunk        401   D     D     202   D     D     401  401  401
            api   PUT     /v2/{name}/blobs/uploads/{id}        upload-close        401   D     D     201   D     D     401  401  401
            api   DELETE  /v2/{name}/blobs/uploads/{id}        upload              401   D     D     204   D     D     401  401  401
            api   GET     /v2/{name}/referrers/{digest}        referrers           401   D     200   200   200   D     401  401  401
            api   HEAD    /v2/{name}/referrers/{digest}        referrers           401   D     200   200   200   D     401  401  401
            api   GET     /token                               token               200|404 200|404 200|404 200|404 200|404 200|404 401 401 401
            api   POST    /token                               token-password      400   200|404 200|404 200|404 200|404 200|404 401 400 400
            api   ANY     /error                               error               500   500   500   500   500   500   500  500  500
            mgmt  GET     /actuator                            actuator            401   403   403   403   403   200   401  401  401
            mgmt  GET     /actuator/health                     health              200   200   200   200   200   200   200  200  200
            mgmt  GET     /actuator/health/{*path}             liveness            200   200   200   200   200   200   200  200  200
            mgmt  GET     /actuator/health/{*path}             readiness           200   200   200   200   200   200   200  200  200
            mgmt  GET     /actuator/prometheus                 prometheus          200   200   200   200   200   200   200  200  200
            mgmt  GET     /actuator/gc                         gc                  401   403   403   403   403   200   401  401  401
            mgmt  POST    /actuator/gc                         gc-collect          401   403   403   403   403   200   401  401  401
            mgmt  POST    /actuator/gc                         gc-check            401   403   403   403   403   200   401  401  401
            mgmt  POST    /actuator/gc                         gc-repair           401   403   403   403   403   200   401  401  401
            mgmt  POST    /actuator/gc                         gc-retention-dry    401   403   403   403   403   200   401  401  401
            mgmt  POST    /actuator/gc                         gc-retention        401   403   403   403   403   200   401  401  401
            mgmt  GET     /actuator/dedup                      dedup               401   403   403   403   403   200   401  401  401
            mgmt  POST    /actuator/dedup                      dedup-settle        401   403   403   403   403   200   401  401  401
            mgmt  POST    /actuator/dedup/{action}             dedup-backfill      401   403   403   403   403   200   401  401  401
            mgmt  GET     /actuator/mappings                   mappings            401   403   403   403   403   200   401  401  401
            mgmt  GET     /actuator/usage                      usage               401   403   403   403   403   200   401  401  401
            mgmt  GET     /actuator/usage/{*name}              usage-repository    401   403   403   403   403   200   401  401  401
            mgmt  GET     /actuator/operator                   operator            401   403   403   403   403   200   401  401  401
            mgmt  GET     /actuator/mirror                     mirror              401   403   403   403   403   200   401  401  401
            """;

    enum Plane { API, MGMT }

    /** One row: a request, and for each caller what a registry in {@code token} and in {@code basic} mode answer. */
    record Row(Plane plane, String method, String pattern, String request, Map<CallerKind, String> cells) {

        /** The method the row's request is sent with. */
        String sentMethod() {
            return method.equals("ANY") ? "GET" : method;
        }

        int expected(CallerKind caller, String mode) {
            String cell = cells.get(caller);
            if (cell.equals("D")) {
                return mode.equals("token") ? 401 : 403;
            }
            int bar = cell.indexOf('|');
            if (bar >= 0) {
                cell = mode.equals("token") ? cell.substring(0, bar) : cell.substring(bar + 1);
            }
            return Integer.parseInt(cell);
        }

        /** {@code GET /v2/{name}/tags/list}, as the route enumeration names it. */
        String route() {
            return method + " " + pattern;
        }

        @Override
        public String toString() {
            return plane.name().toLowerCase() + " " + method + " " + pattern + " (" + request + ")";
        }
    }

    private AuthorizationTable() {
    }

    static List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        for (String line : TABLE.lines().toList()) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] columns = line.trim().split("\\s+");
            CallerKind[] callers = CallerKind.values();
            if (columns.length != 4 + callers.length) {
                throw new IllegalStateException("row needs " + (4 + callers.length) + " columns: " + line);
            }
            Map<CallerKind, String> cells = new EnumMap<>(CallerKind.class);
            for (int i = 0; i < callers.length; i++) {
                cells.put(callers[i], columns[4 + i]);
            }
            rows.add(new Row(Plane.valueOf(columns[0].toUpperCase()), columns[1], columns[2], columns[3], cells));
        }
        return rows;
    }
}
