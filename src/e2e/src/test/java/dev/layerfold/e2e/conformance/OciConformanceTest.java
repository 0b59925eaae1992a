package dev.layerfold.e2e.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.e2e.distributed.S3AndRedisBackend;
import dev.layerfold.e2e.process.LayerfoldProcess;
import dev.layerfold.e2e.process.RegistryProcess;
import dev.layerfold.storage.testserver.RedisServer;
import dev.layerfold.storage.testserver.S3Server;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.security.crypto.bcrypt.BCrypt;

/**
 * The OCI distribution-spec conformance suite (vendored in {@code src/e2e/oci-conformance}, built
 * here with {@code go build}) against the packaged registry, with every API and data option on except
 * {@code sparse}: the spec lets a registry refuse manifests whose blobs were never pushed, and this one
 * does. Once on each backend, and once with sign-in required, through the suite's own token client.
 */
class OciConformanceTest {

    private static final Path SOURCE = Path.of("oci-conformance");
    private static final Path WORK = Path.of("target", "oci-conformance");
    private static final Path LOGS = Path.of("target", "registry-logs");
    private static final Pattern SUMMARY = Pattern.compile("<testsuite [^>]*tests=\"(\\d+)\" failures=\"(\\d+)\"");
    private static Path suite;

    @BeforeAll
    static void buildSuite() throws Exception {
        Files.createDirectories(WORK);
        suite = WORK.resolve("conformance").toAbsolutePath();
        run(List.of("go", "build", "-o", suite.toString(), "."), SOURCE, Map.of(), WORK.resolve("build.log"));
    }

    @Test
    void embeddedBackendPassesEveryTest(@TempDir Path data) throws Exception {
        assertPasses("embedded", data, Map.of(), Map.of());
    }

    @Test
    void s3AndRedisBackendPassesEveryTest(@TempDir Path data) throws Exception {
        S3Server s3 = S3Server.shared();
        assertPasses("s3-redis", data, S3AndRedisBackend.properties(s3.endpoint(), s3.region(), s3.newBucket(), s3.accessKey(),
                s3.secretKey(), RedisServer.shared().url(), RedisServer.newNamespace()), Map.of());
    }

    @Test
    void withSignInRequiredTheSuitePassesThroughTheTokenFlow(@TempDir Path data) throws Exception {
        Path htpasswd = data.resolve("htpasswd");
        Files.writeString(htpasswd, "conformance:" + BCrypt.hashpw("conformance-secret", BCrypt.gensalt(5)) + "\n");
        assertPasses("embedded-auth", data, Map.of("layerfold.auth.mode", "token", "layerfold.auth.htpasswd", htpasswd.toString()),
                Map.of("OCI_USERNAME", "conformance", "OCI_PASSWORD", "conformance-secret"));
    }

    private void assertPasses(String name, Path data, Map<String, String> properties, Map<String, String> credentials) throws Exception {
        Path results = WORK.resolve(name).toAbsolutePath();
        try (RegistryProcess registry = LayerfoldProcess.start("256m", data.resolve("registry"), LOGS, List.of(), properties)) {
            Map<String, String> environment = new HashMap<>(credentials);
            environment.put("OCI_CONFIGURATION", configuration(results).toString());
            environment.put("OCI_REGISTRY", registry.hostAndPort());
            environment.put("OCI_RESULTS_DIR", results.toString());
            run(List.of(suite.toString()), results, environment, results.resolve("output.log"));
            String junit = Files.readString(results.resolve("junit.xml"));
            Matcher summary = SUMMARY.matcher(junit);
            assertThat(summary.find()).as("a summary in " + results.resolve("junit.xml")).isTrue();
            int tests = Integer.parseInt(summary.group(1));
            int failures = Integer.parseInt(summary.group(2));
            System.out.printf("OCI conformance on %s: %d tests, %d failures (results in %s)%n", name, tests, failures, results);
            List<String> failed = failedTests(results.resolve("output.log"));
            assertThat(failed).as("failures on " + name + "\nregistry log:\n" + registry.logTail()).isEmpty();
            assertThat(failures).as("failures junit.xml counts").isZero();
            assertThat(tests).as("tests run").isGreaterThan(500);
        }
    }

    private static Path configuration(Path results) throws IOException {
        Files.createDirectories(results);
        return Files.writeString(results.resolve("oci-conformance.yaml"), """
                version: "1.1"
                tls: disabled
                repo1: conformance/repo1
                repo2: conformance/repo2
                apis:
                  pull: true
                  push: true
                  blobs: {atomic: true, delete: true, digestHeader: true, mountAnonymous: true, uploadCancel: true}
                  manifests: {atomic: true, delete: true, digestHeader: true, tagParam: true}
                  tags: {atomic: true, delete: true, list: true}
                  referrer: true
                data: {image: true, index: true, indexList: true, sparse: false, artifact: true, subject: true,
                       subjectMissing: true, artifactList: true, subjectList: true, dataField: true, nondistributable: true,
                       customFields: true, noLayers: true, emptyBlob: true, sha512: true}
                """);
    }

    private static List<String> failedTests(Path output) throws IOException {
        return Files.readAllLines(output, StandardCharsets.UTF_8).stream().filter(line -> line.contains("msg=\"failed test\""))
                .toList();
    }

    private static int run(List<String> command, Path directory, Map<String, String> environment, Path log) throws Exception {
        Files.createDirectories(directory);
        ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        Process process = builder.start();
        if (!process.waitFor(10, TimeUnit.MINUTES)) {
            process.destroyForcibly().waitFor();
            throw new AssertionError(String.join(" ", command) + " did not finish within 10 minutes; see " + log);
        }
        if (command.getFirst().equals("go") && process.exitValue() != 0) {
            throw new AssertionError("building the conformance suite failed (Go and its module proxy are needed):\n"
                    + Files.readString(log));
        }
        return process.exitValue();
    }
}
