package dev.layerfold.e2e.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/** Starts the packaged Layerfold executable ({@code java -jar layerfold.jar}) as its own process. */
public final class LayerfoldProcess {

    /** The system property naming the packaged jar; the e2e and benchmark poms set it. */
    public static final String JAR_PROPERTY = "layerfold.jar";

    private LayerfoldProcess() {
    }

    /**
     * Starts Layerfold with heap limit {@code maxHeap} (a JVM size such as {@code 256m}) on a free port
     * (and its management plane on another, on loopback),
     * storing its data in {@code dataDir} and its output in {@code logDir}.
     */
    public static RegistryProcess start(String maxHeap, Path dataDir, Path logDir)
            throws IOException, InterruptedException {
        return start(maxHeap, dataDir, logDir, List.of(), Map.of());
    }

    /**
     * Like {@link #start(String, Path, Path)}, with {@code jvmOptions} for the JVM (e.g. C1 only, for
     * tests that restart it often) and Spring {@code properties} on the command line on top, e.g.
     * {@code layerfold.storage.blob=s3} and the bucket to use.
     */
    public static RegistryProcess start(String maxHeap, Path dataDir, Path logDir, List<String> jvmOptions,
                                        Map<String, String> properties) throws IOException, InterruptedException {
        return start(maxHeap, dataDir, logDir, jvmOptions, properties, Map.of());
    }

    /**
     * Like {@link #start(String, Path, Path, List, Map)}, with {@code environment} variables added to the
     * inherited ones, as a container gets them from a compose file (e.g. {@code LAYERFOLD_STORAGE_BLOB=s3}).
     */
    public static RegistryProcess start(String maxHeap, Path dataDir, Path logDir, List<String> jvmOptions,
                                        Map<String, String> properties, Map<String, String> environment)
            throws IOException, InterruptedException {
        return start(maxHeap, dataDir, logDir, jvmOptions, properties, environment, "http");
    }

    /**
     * Like {@link #start(String, Path, Path, List, Map)}, serving the registry port over HTTPS with the
     * PEM {@code certificate} (chain, leaf first) and its {@code privateKey}, as {@code server.ssl.*} sets it.
     */
    public static RegistryProcess startWithTls(String maxHeap, Path dataDir, Path logDir, Path certificate, Path privateKey,
                                               Map<String, String> properties) throws IOException, InterruptedException {
        Map<String, String> withTls = new HashMap<>(properties);
        withTls.put("server.ssl.certificate", certificate.toAbsolutePath().toString());
        withTls.put("server.ssl.certificate-private-key", privateKey.toAbsolutePath().toString());
        return start(maxHeap, dataDir, logDir, List.of(), withTls, Map.of(), "https");
    }

    private static RegistryProcess start(String maxHeap, Path dataDir, Path logDir, List<String> jvmOptions,
                                         Map<String, String> properties, Map<String, String> environment, String scheme)
            throws IOException, InterruptedException {
        Path jar = packagedJar();
        int port = FreePort.pick();
        int managementPort = FreePort.pick();
        while (managementPort == port) {
            managementPort = FreePort.pick();
        }
        Files.createDirectories(dataDir);
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx" + maxHeap);
        // As the image runs it: a process out of memory exits, rather than living on without answering.
        command.add("-XX:+ExitOnOutOfMemoryError");
        command.addAll(jvmOptions);
        command.addAll(List.of("-jar", jar.toString(),
                "--server.port=" + port,
                "--management.server.port=" + managementPort,
                "--layerfold.storage.path=" + dataDir.toAbsolutePath()));
        properties.forEach((name, value) -> command.add("--" + name + "=" + value));
        return RegistryProcess.start("layerfold", command, environment, scheme, port, OptionalInt.of(managementPort), dataDir,
                logDir.resolve("layerfold-" + port + ".log"));
    }

    private static Path packagedJar() {
        String configured = System.getProperty(JAR_PROPERTY);
        if (configured == null) {
            throw new IllegalStateException("system property " + JAR_PROPERTY
                    + " is not set; it must name server/target/layerfold.jar");
        }
        Path jar = Path.of(configured).toAbsolutePath().normalize();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " does not exist; build it with"
                    + " ./mvnw -q -B -pl server -am package -DskipTests");
        }
        return jar;
    }
}
