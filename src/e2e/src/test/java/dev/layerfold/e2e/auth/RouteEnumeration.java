package dev.layerfold.e2e.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.registry.api.Route;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.e2e.process.RegistryProcess;
import java.lang.reflect.RecordComponent;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the registry serves, read from the registry itself, so that a route added without a row in
 * {@link AuthorizationTable} fails the matrix: the distribution API's routes (every type of
 * {@link Route}, with the methods its handler allows, which its 405 to a method no route serves lists;
 * Spring answers {@code OPTIONS} itself), every other Spring mapping of the registry port (the
 * management port's {@code /actuator/mappings}, read as the admin), and every actuator endpoint the
 * management port links from {@code /actuator}, with the methods its 405 lists.
 */
final class RouteEnumeration {

    /** The one Spring mapping behind which {@link Route} and the handlers' methods decide. */
    private static final String DISTRIBUTION_API = "/v2/**";

    private final RegistryProcess registry;
    private final MatrixClient client;
    private final List<AuthorizationTable.Row> rows;

    RouteEnumeration(RegistryProcess registry, MatrixClient client, List<AuthorizationTable.Row> rows) {
        this.registry = registry;
        this.client = client;
        this.rows = rows;
    }

    void assertEveryServedRouteHasARow() throws Exception {
        Set<String> tabled = rows.stream().map(row -> row.plane() + " " + row.route()).collect(Collectors.toCollection(TreeSet::new));
        Set<String> served = new TreeSet<>();
        served.addAll(distributionRoutes());
        served.addAll(springMappings());
        served.addAll(managementRoutes());
        assertThat(tabled).as("routes of the authorization table (plane method pattern) against the routes the registry serves:"
                + " a served route without a row needs one, a row of a route no longer served goes").isEqualTo(served);
    }

    private List<String> distributionRoutes() throws Exception {
        List<String> routes = new ArrayList<>();
        for (Class<?> type : Route.class.getPermittedSubclasses()) {
            String pattern = sample(type).pathPattern();
            AuthorizationTable.Row row = rows.stream().filter(r -> r.pattern().equals(pattern)).findFirst()
                    .orElseThrow(() -> new AssertionError("route " + type.getSimpleName() + " (" + pattern
                            + ") has no row in the authorization table"));
            MatrixRequest probe = new MatrixRequest(AuthorizationTable.Plane.API, "PROPFIND",
                    MatrixRequests.ofPathOnly(row), Map.of(), new byte[0]);
            HttpResponse<String> answer = client.send(CallerKind.PUSH, probe);
            assertThat(answer.statusCode()).as("PROPFIND " + probe.path() + " lists the route's methods: " + answer.body())
                    .isEqualTo(405);
            for (String method : answer.headers().firstValue("Allow").orElseThrow().split(",\\s*")) {
                routes.add("API " + method + " " + pattern);
            }
        }
        return routes;
    }

    /** A route of the type, to ask for its path pattern. */
    private static Route sample(Class<?> type) throws Exception {
        RecordComponent[] components = type.getRecordComponents();
        Object[] arguments = new Object[components.length];
        for (int i = 0; i < components.length; i++) {
            Class<?> parameter = components[i].getType();
            arguments[i] = parameter == RepositoryName.class ? RepositoryName.of("a/b")
                    : parameter == Digest.class ? Digest.sha256(new byte[0]) : "x";
        }
        return (Route) type.getDeclaredConstructor(Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new))
                .newInstance(arguments);
    }

    /**
     * The endpoints {@code /actuator} links (templates such as {@code /actuator/dedup/{action}}), and
     * {@code /actuator} itself; the mappings endpoint lists the registry port's context only.
     */
    private List<String> managementRoutes() throws Exception {
        HttpResponse<String> answer = client.send(CallerKind.ADMIN, MatrixRequest.management("GET", "/actuator"));
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        Set<String> paths = new TreeSet<>(List.of("/actuator"));
        for (var link : JsonMapper.builder().build().readTree(answer.body()).path("_links").properties()) {
            paths.add(URI.create(link.getValue().path("href").asString().replace("{", "%7B").replace("}", "%7D"))
                    .getPath());
        }
        List<String> routes = new ArrayList<>();
        for (String pattern : paths) {
            String path = pattern.replace("{*path}", "liveness").replace("{action}", "backfill")
                    .replace("{*name}", MatrixFixture.REPOSITORY);
            HttpResponse<String> probe = client.send(CallerKind.ADMIN, MatrixRequest.management("PROPFIND", path));
            assertThat(probe.statusCode()).as("PROPFIND " + path + " lists the endpoint's methods: " + probe.body()).isEqualTo(405);
            for (String method : probe.headers().firstValue("Allow").orElseThrow().split(",\\s*")) {
                routes.add("MGMT " + method + " " + pattern);
            }
        }
        return routes;
    }

    private List<String> springMappings() throws Exception {
        HttpResponse<String> answer = client.send(CallerKind.ADMIN, MatrixRequest.management("GET", "/actuator/mappings"));
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        JsonNode contexts = JsonMapper.builder().build().readTree(answer.body()).path("contexts");
        List<String> routes = new ArrayList<>();
        for (var context : contexts.properties()) {
            String plane = "API";
            for (var servlet : context.getValue().path("mappings").path("dispatcherServlets").properties()) {
                for (JsonNode mapping : servlet.getValue()) {
                    JsonNode conditions = mapping.path("details").path("requestMappingConditions");
                    if (conditions.isMissingNode() || conditions.isNull()) {
                        throw new AssertionError("a mapping the matrix cannot place: " + mapping);
                    }
                    List<String> methods = new ArrayList<>();
                    conditions.path("methods").forEach(method -> methods.add(method.asString()));
                    for (JsonNode pattern : conditions.path("patterns")) {
                        if (pattern.asString().equals(DISTRIBUTION_API) || pattern.asString().equals("/v2")
                                || pattern.asString().equals("/v2/")) {
                            continue;
                        }
                        for (String method : methods.isEmpty() ? List.of("ANY") : methods) {
                            routes.add(plane + " " + method + " " + pattern.asString());
                        }
                    }
                }
            }
        }
        return routes;
    }
}
