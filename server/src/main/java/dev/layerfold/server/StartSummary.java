package dev.layerfold.server;

import dev.layerfold.registry.auth.AdminAuthorization;
import java.net.URI;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * Once the registry is up, the one summary of what runs: where the backends point (never a secret),
 * the dedup, predictor and sign-in modes, both ports (the registry port serves the distribution API and
 * {@code /token}, the management port health, metrics and the admin actions), and what is open on the
 * management port.
 */
@Component
class StartSummary {

    private static final Logger log = LoggerFactory.getLogger(StartSummary.class);

    private final Environment environment;
    private final AdminAuthorization admin;

    StartSummary(Environment environment, AdminAuthorization admin) {
        this.environment = environment;
        this.admin = admin;
    }

    @EventListener(ApplicationReadyEvent.class)
    void summarize() {
        String summary = "Layerfold is up. " + planes() + " Blobs: " + blobs() + ". Metadata: " + metadata() + ". Dedup: "
                + environment.getProperty("layerfold.dedup.mode", "all") + " (" + environment.getProperty("layerfold.dedup.workers", "1")
                + " worker(s)). Predictor: " + environment.getProperty("layerfold.predictor.mode", "predict") + ". Sign-in: "
                + environment.getProperty("layerfold.auth.mode", "none") + ".";
        if (admin.open()) {
            log.warn(summary);
        } else {
            log.info(summary);
        }
    }

    private String blobs() {
        if ("s3".equals(environment.getProperty("layerfold.storage.blob"))) {
            return "S3 bucket " + environment.getProperty("layerfold.storage.s3.bucket") + " at "
                    + environment.getProperty("layerfold.storage.s3.endpoint", "AWS") + " ("
                    + environment.getProperty("layerfold.storage.s3.region", "us-east-1") + ")";
        }
        return "files under " + Path.of(environment.getProperty("layerfold.storage.path", "./data")).toAbsolutePath().normalize();
    }

    /** The Redis URL without its user and password. */
    private String metadata() {
        if (!"redis".equals(environment.getProperty("layerfold.storage.metadata"))) {
            return "SQLite in " + Path.of(environment.getProperty("layerfold.storage.path", "./data"))
                    .toAbsolutePath().normalize().resolve("metadata.db");
        }
        String where;
        try {
            URI url = URI.create(environment.getProperty("layerfold.storage.redis.url", ""));
            where = url.getScheme() + "://" + url.getHost() + (url.getPort() < 0 ? "" : ":" + url.getPort());
        } catch (IllegalArgumentException e) {
            where = "(an unreadable URL)";
        }
        return "Redis at " + where + ", namespace " + environment.getProperty("layerfold.storage.redis.namespace", "layerfold")
                + (environment.getProperty("layerfold.storage.redis.cluster", Boolean.class, false) ? " (cluster)" : "");
    }

    private String planes() {
        String registry = environment.getProperty("server.address", "0.0.0.0") + ":" + environment.getProperty("local.server.port");
        String managementPort = environment.getProperty("local.management.port");
        if (managementPort == null) {
            return "Registry (distribution API and /token) on " + registry + "; no management plane (management.server.port=-1).";
        }
        String management = environment.getProperty("management.server.address", "0.0.0.0") + ":" + managementPort;
        return "Registry (distribution API and /token) on " + registry + ". Management plane on " + management + (admin.open()
                ? ": sign-in is off, so ANYONE who reaches " + management + " may run collections, checks, repairs and retention"
                        + " (which deletes tags and manifests), dedup actions and mirror runs, and read the inventory"
                        + " (/actuator/gc, /actuator/dedup, /actuator/usage, /actuator/operator, /actuator/mirror);"
                        + " health and metrics are open too."
                : ": health and metrics open to whoever reaches it; admin actions and inventory reads need the admin grant.");
    }
}
