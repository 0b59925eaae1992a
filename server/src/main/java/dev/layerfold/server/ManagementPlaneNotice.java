package dev.layerfold.server;

import dev.layerfold.registry.auth.AdminAuthorization;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * Keeps the two planes apart (the registry port serves the distribution API and {@code /token}, the
 * management port health, metrics and the admin actions), and once the registry is up prints the one
 * summary of what runs: both ports, where the backends point (never a secret), the dedup, predictor and
 * sign-in modes, and what is open on the management port.
 */
@Component
class ManagementPlaneNotice {

    private static final Logger log = LoggerFactory.getLogger(ManagementPlaneNotice.class);

    private final Environment environment;
    private final AdminAuthorization admin;

    ManagementPlaneNotice(Environment environment, AdminAuthorization admin) {
        this.environment = environment;
        this.admin = admin;
        requireOwnPort(environment);
    }

    /**
     * On the registry's port the actuator would be served beside the API to everyone who may pull;
     * refused rather than left to a configuration slip.
     */
    static void requireOwnPort(Environment environment) {
        String management = environment.getProperty("management.server.port");
        String server = environment.getProperty("server.port", "8080");
        if (management == null || management.isBlank() || (!management.equals("0") && management.equals(server))) {
            throw new IllegalStateException("management.server.port (LAYERFOLD_MANAGEMENT_PORT) is " + management
                    + " and server.port is " + server + ": the management plane (health, metrics, admin actions) needs a port"
                    + " of its own, apart from the registry's; set it to another port, or to -1 to serve no management plane");
        }
    }

    @EventListener(ApplicationReadyEvent.class)
    void summarize() {
        log.info("Layerfold is up. Blobs: {}. Metadata: {}. Dedup: {} ({} worker(s)). Predictor: {}. Sign-in: {}.",
                blobs(), metadata(), environment.getProperty("layerfold.dedup.mode", "all"),
                environment.getProperty("layerfold.dedup.workers", "1"), environment.getProperty("layerfold.predictor.mode", "predict"),
                environment.getProperty("layerfold.auth.mode", "none"));
        sayWhereThePlanesListen();
    }

    private String blobs() {
        if ("s3".equals(environment.getProperty("layerfold.storage.blob"))) {
            return "S3 bucket " + environment.getProperty("layerfold.storage.s3.bucket") + " at "
                    + environment.getProperty("layerfold.storage.s3.endpoint", "AWS") + " ("
                    + environment.getProperty("layerfold.storage.s3.region", "us-east-1") + ")";
        }
        return "files under " + java.nio.file.Path.of(environment.getProperty("layerfold.storage.path", "./data")).toAbsolutePath().normalize();
    }

    /** The Redis URL without its user and password. */
    private String metadata() {
        if (!"redis".equals(environment.getProperty("layerfold.storage.metadata"))) {
            return "SQLite in " + java.nio.file.Path.of(environment.getProperty("layerfold.storage.path", "./data"))
                    .toAbsolutePath().normalize().resolve("metadata.db");
        }
        String where;
        try {
            java.net.URI url = java.net.URI.create(environment.getProperty("layerfold.storage.redis.url", ""));
            where = url.getScheme() + "://" + url.getHost() + (url.getPort() < 0 ? "" : ":" + url.getPort());
        } catch (IllegalArgumentException e) {
            where = "(an unreadable URL)";
        }
        return "Redis at " + where + ", namespace " + environment.getProperty("layerfold.storage.redis.namespace", "layerfold")
                + (environment.getProperty("layerfold.storage.redis.cluster", Boolean.class, false) ? " (cluster)" : "");
    }

    private void sayWhereThePlanesListen() {
        String registry = environment.getProperty("server.address", "0.0.0.0") + ":" + environment.getProperty("local.server.port");
        String managementPort = environment.getProperty("local.management.port");
        if (managementPort == null) {
            log.info("Registry (distribution API and /token) on {}; no management plane (management.server.port=-1)", registry);
            return;
        }
        String management = environment.getProperty("management.server.address", "0.0.0.0") + ":" + managementPort;
        if (admin.open()) {
            log.warn("Registry (distribution API and /token) on {}. Management plane on {}: sign-in is off, so ANYONE who"
                    + " reaches {} may run collections, checks, repairs and retention (which deletes tags and manifests),"
                    + " dedup actions, and read the inventory (/actuator/gc, /actuator/dedup); health and metrics are open too.",
                    registry, management, management);
        } else {
            log.info("Registry (distribution API and /token) on {}. Management plane on {}: health and metrics open to whoever"
                    + " reaches it; admin actions and inventory reads need the admin grant.", registry, management);
        }
    }
}
