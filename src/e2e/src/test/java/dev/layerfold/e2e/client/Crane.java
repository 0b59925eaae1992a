package dev.layerfold.e2e.client;

import dev.layerfold.e2e.process.Executables;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The {@code crane} CLI from go-containerregistry, a second client implementation next to skopeo.
 * Runs with {@code --insecure}: the registries under test speak plain HTTP on loopback.
 */
public final class Crane {

    /** The version .ci/run installs. */
    public static final String INSTALL = "go install github.com/google/go-containerregistry/cmd/crane@v0.22.1";
    private static final Duration TIMEOUT = Duration.ofMinutes(3);

    private final String executable;
    private final Map<String, String> environment;

    private Crane(String executable, Map<String, String> environment) {
        this.executable = executable;
        this.environment = environment;
    }

    /** Finds crane on PATH or in Go's install directory ({@code $HOME/go/bin}). */
    public static Crane installed() {
        Path goBin = Path.of(System.getProperty("user.home"), "go", "bin");
        return new Crane(Executables.find("crane", List.of(goBin), INSTALL + " (as .ci/run does)").toString(), Map.of());
    }

    /** This crane with its credentials in {@code dockerConfigDir}/config.json, not the user's. */
    public Crane withDockerConfig(Path dockerConfigDir) {
        return new Crane(executable, Map.of("DOCKER_CONFIG", dockerConfigDir.toString()));
    }

    /** {@code crane auth login}: stores the credentials for the registry, as {@code docker login} does. */
    public void login(String registry, String user, String password) throws IOException, InterruptedException {
        CommandLine.run(TIMEOUT, List.of(executable, "auth", "login", registry, "-u", user, "-p", password), environment);
    }

    /** Pushes an OCI image layout holding one image. */
    public void push(Path layout, String image) throws IOException, InterruptedException {
        run("push", layout.toString(), image);
    }

    /** Pulls an image into an OCI image layout. */
    public void pull(String image, Path layout) throws IOException, InterruptedException {
        run("pull", "--format=oci", image, layout.toString());
    }

    public void copy(String source, String destination) throws IOException, InterruptedException {
        run("copy", source, destination);
    }

    /** The manifest's digest as the registry reports it. */
    public String digest(String image) throws IOException, InterruptedException {
        return run("digest", image).stdoutText().strip();
    }

    /** The manifest exactly as the registry serves it. */
    public byte[] manifest(String image) throws IOException, InterruptedException {
        return run("manifest", image).stdout();
    }

    private CommandLine.Result run(String subcommand, String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(executable, subcommand, "--insecure"));
        command.addAll(List.of(arguments));
        return CommandLine.run(TIMEOUT, command, environment);
    }
}
