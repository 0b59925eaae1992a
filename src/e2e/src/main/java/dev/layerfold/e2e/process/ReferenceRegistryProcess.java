package dev.layerfold.e2e.process;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * Starts the CNCF reference registry ({@code docker-registry} from the Debian package of
 * github.com/distribution/distribution) with filesystem (or S3) storage and deletes enabled, configured as
 * the package ships it otherwise (in-memory blob descriptor cache), minus per-request logging.
 */
public final class ReferenceRegistryProcess {

    private static final String BINARY = "docker-registry";

    private ReferenceRegistryProcess() {
    }

    public static RegistryProcess start(Path dataDir, Path logDir) throws IOException, InterruptedException {
        return start(filesystem(dataDir), List.of(), "", dataDir, logDir);
    }

    /**
     * Starts the reference registry on the filesystem with sign-in required: HTTP Basic against the
     * bcrypt {@code htpasswd} file, as its {@code auth.htpasswd} section configures it.
     */
    public static RegistryProcess startWithHtpasswd(Path dataDir, Path logDir, Path htpasswd)
            throws IOException, InterruptedException {
        return start(filesystem(dataDir), List.of(), """
                auth:
                  htpasswd:
                    realm: layerfold-e2e
                    path: %s
                """.formatted(htpasswd.toAbsolutePath()), dataDir, logDir);
    }

    /**
     * Starts the reference registry on the filesystem as its own pull-through cache of {@code remote}
     * ({@code proxy.remoteurl}): the peer of Layerfold's pull-through cache.
     */
    public static RegistryProcess startAsCacheOf(URI remote, Path dataDir, Path logDir) throws IOException, InterruptedException {
        return start(filesystem(dataDir), List.of(), """
                proxy:
                  remoteurl: %s
                """.formatted(remote), dataDir, logDir);
    }

    private static String filesystem(Path dataDir) {
        return """
                  filesystem:
                    rootdirectory: %s
                """.formatted(dataDir.toAbsolutePath());
    }

    /**
     * Starts the reference registry on its S3 driver instead, against an S3-compatible server at
     * {@code endpoint} over plain HTTP with path-style bucket addressing (the 2.8 driver uses path
     * style whenever a {@code regionendpoint} is set). Redirects to presigned S3 URLs, on by default in
     * the reference registry and off by default in Layerfold, are disabled: both registries then serve
     * every byte themselves, and a benchmark compares the registries rather than the S3 server.
     * {@code dataDir} stays empty: the bytes are in the bucket.
     */
    public static RegistryProcess startOnS3(URI endpoint, String region, String bucket, String accessKey,
                                            String secretKey, Path dataDir, Path logDir)
            throws IOException, InterruptedException {
        return start("""
                  s3:
                    regionendpoint: %s
                    region: %s
                    bucket: %s
                    accesskey: %s
                    secretkey: %s
                    secure: false
                    v4auth: true
                  redirect:
                    disable: true
                """.formatted(endpoint, region, bucket, accessKey, secretKey),
                // The 2.8 driver panics at start-up when AWS_CA_BUNDLE is set ("HTTPClient's transport
                // unsupported type"); the endpoint is plain HTTP, so no CA bundle is needed anyway.
                List.of("env", "-u", "AWS_CA_BUNDLE"), "", dataDir, logDir);
    }

    /**
     * {@code storageDriver}: the driver's lines under {@code storage:}, indented by two spaces;
     * {@code launcher}: what the binary runs under, if anything (such as {@code env} to drop a variable);
     * {@code sections}: more top-level sections of the configuration (such as {@code auth}).
     */
    private static RegistryProcess start(String storageDriver, List<String> launcher, String sections, Path dataDir, Path logDir)
            throws IOException, InterruptedException {
        Path binary = Executables.find(BINARY, List.of(), "apt-get install docker-registry (as .ci/run does)");
        int port = FreePort.pick();
        Files.createDirectories(dataDir);
        Files.createDirectories(logDir);
        Path config = logDir.resolve("reference-registry-" + port + ".yml");
        Files.writeString(config, """
                version: 0.1
                log:
                  level: warn
                  accesslog:
                    disabled: true
                storage:
                %s  delete:
                    enabled: true
                  cache:
                    blobdescriptor: inmemory
                http:
                  addr: 127.0.0.1:%d
                %s""".formatted(storageDriver, port, sections));
        List<String> command = new ArrayList<>(launcher);
        command.addAll(List.of(binary.toString(), "serve", config.toString()));
        return RegistryProcess.start("reference-registry", command, Map.of(), port, OptionalInt.empty(), dataDir,
                logDir.resolve("reference-registry-" + port + ".log"));
    }
}
