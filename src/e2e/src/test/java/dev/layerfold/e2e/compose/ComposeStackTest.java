package dev.layerfold.e2e.compose;

import static dev.layerfold.e2e.oci.LayoutAssertions.assertSameImage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layerfold.e2e.client.Skopeo;
import dev.layerfold.e2e.oci.Descriptor;
import dev.layerfold.e2e.oci.ImageWriter;
import dev.layerfold.e2e.oci.ImageWriter.Platform;
import dev.layerfold.e2e.oci.OciLayout;
import dev.layerfold.e2e.process.LayerfoldProcess;
import dev.layerfold.e2e.process.RegistryProcess;
import dev.layerfold.storage.testserver.RedisServer;
import dev.layerfold.storage.testserver.S3Server;
import java.net.URI;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The stack of {@code docker-compose.yml} without Docker: the packaged registry runs with exactly the
 * environment {@code services.registry.environment} gives it, compose's {@code minio} and {@code redis}
 * services replaced by the storage module's local S3 and Redis servers (with the file's MinIO
 * credentials and the bucket {@code minio-init} creates; Redis with the options of the file's command). Every compose variable takes its default, as
 * with no {@code .env} file. A registry environment that no longer matches the properties the server
 * reads (a misspelled variable, a bucket other than minio-init's) fails here instead of at
 * {@code docker compose up}.
 */
class ComposeStackTest {

    private static final Path COMPOSE_FILE = Path.of(System.getProperty("layerfold.compose.file", "../../docker-compose.yml"));
    /** No {@code .env} file and no variables in the shell: every {@code ${VAR:-default}} is its default. */
    private static final Map<String, String> NO_VARIABLES = Map.of();
    /** Where the registry container reaches compose's services, which the test runs as local processes. */
    private static final String MINIO_ADDRESS = "minio:9000";
    private static final String REDIS_ADDRESS = "redis:6379";
    private static final Path LOGS = Path.of("target", "registry-logs");
    private static final Platform AMD64 = new Platform("linux", "amd64");
    /** The development user of compose/htpasswd, as the compose file's comments name it. */
    private static final String COMPOSE_CREDENTIALS = "layerfold:layerfold-dev-secret";

    private final Skopeo skopeo = Skopeo.onPath();

    @Test
    void registryAsComposeConfiguresItKeepsAnImagePushedToItWhenItsContainerIsRecreated(@TempDir Path work)
            throws Exception {
        ComposeFile compose = ComposeFile.read(COMPOSE_FILE, NO_VARIABLES);
        Map<String, String> minio = compose.environment("minio");
        S3Server s3 = S3Server.startWith(minio.get("MINIO_ROOT_USER"), minio.get("MINIO_ROOT_PASSWORD"));
        String bucket = compose.environment("minio-init").get("BUCKET");
        try (S3Client client = s3.newClient()) {
            client.createBucket(request -> request.bucket(bucket));
        }
        List<String> redisCommand = compose.command("redis");
        assertThat(redisCommand).as("services.redis.command").first().isEqualTo("redis-server");
        try (RedisServer.Restartable redis = RedisServer.startRestartable(
                redisCommand.subList(1, redisCommand.size()).toArray(String[]::new))) {
            Map<String, String> environment = onLocalFiles(onLocalServers(compose.environment("registry"), Map.of(
                    MINIO_ADDRESS, s3.endpoint().getAuthority(),
                    REDIS_ADDRESS, URI.create(redis.url()).getAuthority())), compose.bindMounts("registry"));
            pushThenPullFromARecreatedContainer(work, environment);
        }
    }

    private void pushThenPullFromARecreatedContainer(Path work, Map<String, String> environment) throws Exception {
        OciLayout pushed = OciLayout.create(work.resolve("pushed"));
        ImageWriter images = new ImageWriter(pushed);
        Descriptor manifest = images.image(AMD64, List.of(images.layer(50, 3, 200_000), images.layer(51, 20, 5_000)));
        pushed.tag("v1", manifest);
        String image = "/compose/e2e:v1";
        try (RegistryProcess registry = startRegistry(work.resolve("first-container"), environment)) {
            assertThatThrownBy(() -> skopeo.copy(pushed.skopeoReference("v1"), "docker://" + registry.hostAndPort() + image,
                    "--dest-tls-verify=false", "--dest-no-creds")).as("the compose stack requires sign-in")
                    .hasMessageMatching("(?s).*(unauthorized|requested access to the resource is denied).*");
            skopeo.copy(pushed.skopeoReference("v1"), "docker://" + registry.hostAndPort() + image,
                    "--dest-tls-verify=false", "--preserve-digests", "--dest-creds=" + COMPOSE_CREDENTIALS);
        }

        // A new container has an empty file system: the image must come back from MinIO and Redis alone.
        try (RegistryProcess registry = startRegistry(work.resolve("second-container"), environment)) {
            OciLayout pulled = OciLayout.create(work.resolve("pulled"));
            String remote = "docker://" + registry.hostAndPort() + image;
            try {
                skopeo.copy(remote, pulled.skopeoReference("v1"), "--src-tls-verify=false", "--preserve-digests",
                        "--src-creds=" + COMPOSE_CREDENTIALS);
            } catch (AssertionError e) {
                throw new AssertionError("a registry container recreated from " + COMPOSE_FILE + " does not serve "
                        + "the image pushed before: with the environment " + environment + " it keeps state "
                        + "outside MinIO and Redis\n" + e.getMessage(), e);
            }
            assertSameImage(pushed, pulled, "v1");
            assertThat(skopeo.inspectRaw(remote, "--tls-verify=false", "--creds=" + COMPOSE_CREDENTIALS)).as("manifest bytes served")
                    .isEqualTo(pushed.readBlob(manifest.digest()));
        }
    }

    @Test
    void registryStartsOnceItsBucketExistsAndRedisIsHealthyAndRedisKeepsEveryWrite() throws Exception {
        ComposeFile compose = ComposeFile.read(COMPOSE_FILE, NO_VARIABLES);

        assertThat(compose.dependencies("registry")).as("services.registry.depends_on: the bucket must exist "
                        + "before the registry starts (minio-init creates it), and Redis must answer")
                .containsEntry("minio-init", "service_completed_successfully")
                .containsEntry("redis", "service_healthy");
        assertThat(compose.hasHealthcheck("redis")).as("services.redis has a healthcheck: compose refuses to wait "
                + "for service_healthy without one").isTrue();

        String command = String.join(" ", compose.command("redis"));
        assertThat(command).as("services.redis.command: the index must survive a Redis restart, with no write "
                        + "the bucket has and the index lost")
                .contains("--appendonly yes").contains("--appendfsync always");
    }

    @Test
    void theManagementPortIsPublishedOnTheHostsLoopbackOnly() throws Exception {
        List<String> ports = ComposeFile.read(COMPOSE_FILE, NO_VARIABLES).ports("registry");

        assertThat(ports).as("services.registry.ports: the registry port for clients, the management port (health,"
                        + " metrics, admin actions) for this machine only")
                .contains("5000:5000", "127.0.0.1:5001:5001")
                .allSatisfy(port -> assertThat(port.endsWith(":5001") && !port.startsWith("127.0.0.1:")).as(port).isFalse());
    }

    /**
     * Starts the registry as the compose file's container: its environment, on a fresh data directory;
     * a failure to start names the environment, where a misspelled or missing variable shows.
     */
    private static RegistryProcess startRegistry(Path dataDir, Map<String, String> environment) throws Exception {
        try {
            return LayerfoldProcess.start("256m", dataDir, LOGS, List.of("-XX:TieredStopAtLevel=1"), Map.of(),
                    environment);
        } catch (IllegalStateException e) {
            throw new AssertionError("the registry did not start with the environment " + COMPOSE_FILE
                    + " gives it in services.registry.environment (with " + MINIO_ADDRESS + " and " + REDIS_ADDRESS
                    + " replaced by local servers): " + environment + "\n" + e.getMessage(), e);
        }
    }

    /** {@code environment} with every value naming a bind-mounted container path replaced by the host's file. */
    private static Map<String, String> onLocalFiles(Map<String, String> environment, Map<String, Path> mounts) {
        Map<String, String> local = new LinkedHashMap<>();
        environment.forEach((name, value) -> local.put(name, mounts.containsKey(value) ? mounts.get(value).toString() : value));
        return local;
    }

    /** {@code environment} with every {@code //service:port} in it replaced by the local server's address. */
    private static Map<String, String> onLocalServers(Map<String, String> environment, Map<String, String> addresses) {
        Map<String, String> local = new LinkedHashMap<>();
        environment.forEach((name, value) -> {
            String replaced = value;
            for (Map.Entry<String, String> address : addresses.entrySet()) {
                replaced = replaced.replace("//" + address.getKey(), "//" + address.getValue());
            }
            local.put(name, replaced);
        });
        return local;
    }
}
