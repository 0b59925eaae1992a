package dev.layerfold.storage.testserver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * One S3-compatible server per test JVM: MinIO in a container where a Docker engine is available,
 * otherwise S3Proxy (its jar from Maven Central, copied to {@code target/s3proxy} by the build) as a
 * separate JVM storing objects in a temporary directory.
 *
 * <p>Tests share the server and keep apart by bucket ({@link #newBucket()}); {@link #startWith} starts
 * another with other credentials.
 */
public final class S3Server {

    /** Where the build puts S3Proxy's jar; modules other than storage set this property to their copy. */
    public static final String S3PROXY_JAR_PROPERTY = "layerfold.s3proxy.jar";

    private static final String MINIO_IMAGE = "minio/minio:RELEASE.2025-04-22T22-12-26Z";
    private static final String ACCESS_KEY = "layerfold-test";
    private static final String SECRET_KEY = "layerfold-test-secret";
    private static final AtomicLong BUCKETS = new AtomicLong();

    private final URI endpoint;
    private final String accessKey;
    private final String secretKey;

    private S3Server(URI endpoint, String accessKey, String secretKey) {
        this.endpoint = endpoint;
        this.accessKey = accessKey;
        this.secretKey = secretKey;
    }

    public static S3Server shared() {
        return Holder.INSTANCE;
    }

    public URI endpoint() {
        return endpoint;
    }

    public String region() {
        return "us-east-1";
    }

    public String accessKey() {
        return accessKey;
    }

    public String secretKey() {
        return secretKey;
    }

    /** A client for this server with path-style access (neither server has per-bucket DNS names). */
    public S3Client newClient() {
        return S3Client.builder()
                .endpointOverride(endpoint)
                .region(Region.of(region()))
                .forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey)))
                .build();
    }

    /** Creates an empty bucket no other test uses and returns its name. */
    public String newBucket() {
        String bucket = "test-" + ProcessHandle.current().pid() + "-" + BUCKETS.incrementAndGet();
        try (S3Client client = newClient()) {
            client.createBucket(request -> request.bucket(bucket));
        }
        return bucket;
    }

    /**
     * A server of the caller's own that accepts only these credentials, for a test that must use the
     * ones a deployment file gives (the shared server's are fixed). It stops when the test JVM exits.
     */
    public static S3Server startWith(String accessKey, String secretKey) {
        if (DockerClientFactory.instance().isDockerAvailable()) {
            GenericContainer<?> minio = new GenericContainer<>(MINIO_IMAGE)
                    .withCommand("server", "/data")
                    .withEnv("MINIO_ROOT_USER", accessKey)
                    .withEnv("MINIO_ROOT_PASSWORD", secretKey)
                    .withExposedPorts(9000)
                    .waitingFor(Wait.forHttp("/minio/health/live").forPort(9000));
            minio.start();
            System.out.println("S3Server: Docker is available, MinIO runs in a container");
            return new S3Server(URI.create("http://" + minio.getHost() + ":" + minio.getMappedPort(9000)),
                    accessKey, secretKey);
        }
        return startS3Proxy(accessKey, secretKey);
    }

    private static S3Server startS3Proxy(String accessKey, String secretKey) {
        Path jar = Path.of(System.getProperty(S3PROXY_JAR_PROPERTY, "target/s3proxy/s3proxy.jar")).toAbsolutePath();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("S3Proxy jar not found at " + jar + ": run the tests through Maven "
                    + "(it copies org.gaul:s3proxy:jar-with-dependencies there) or set -D" + S3PROXY_JAR_PROPERTY);
        }
        int port = LocalProcess.freePort();
        Path directory = LocalProcess.newDirectory("s3proxy");
        URI endpoint = URI.create("http://127.0.0.1:" + port);
        try {
            Files.createDirectories(directory.resolve("data"));
            Files.writeString(directory.resolve("s3proxy.conf"), String.join("\n",
                    "s3proxy.endpoint=" + endpoint,
                    "s3proxy.authorization=aws-v2-or-v4",
                    "s3proxy.identity=" + accessKey,
                    "s3proxy.credential=" + secretKey,
                    "jclouds.provider=filesystem-nio2",
                    "jclouds.filesystem.basedir=" + directory.resolve("data"),
                    ""));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String java = ProcessHandle.current().info().command().orElse("java");
        LocalProcess process = LocalProcess.start("s3proxy", directory, List.of(
                // C1 only: S3Proxy starts much faster, and test traffic is too small to need C2.
                java, "-Xmx256m", "-XX:TieredStopAtLevel=1", "-DLOG_LEVEL=warn",
                "-jar", jar.toString(), "--properties", "s3proxy.conf"));
        process.awaitPort(port, Duration.ofSeconds(120)); // a JVM starting on a busy CI machine
        System.out.println("S3Server: no Docker engine, S3Proxy runs as a local process at " + endpoint);
        return new S3Server(endpoint, accessKey, secretKey);
    }

    private static final class Holder {
        static final S3Server INSTANCE = startWith(ACCESS_KEY, SECRET_KEY);
    }
}
