package dev.layerfold.e2e.client;

import dev.layerfold.e2e.process.Executables;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code skopeo} CLI. Runs with {@code --insecure-policy}: the tests copy their own images, so the
 * machine's signature policy must not decide whether they pass.
 */
public final class Skopeo {

    private static final Duration TIMEOUT = Duration.ofMinutes(3);

    private final String executable;

    private Skopeo(String executable) {
        this.executable = executable;
    }

    public static Skopeo onPath() {
        return new Skopeo(Executables.find("skopeo", List.of(), "apt-get install skopeo (as .ci/run does)").toString());
    }

    /** {@code skopeo copy [flags] source destination}, e.g. {@code oci:DIR:tag} to {@code docker://host/repo:tag}. */
    public void copy(String source, String destination, String... flags) throws IOException, InterruptedException {
        run("copy", flags, source, destination);
    }

    /** {@code skopeo login}: stores the credentials for the registry in {@code authFile}. */
    public void login(String registry, String user, String password, Path authFile)
            throws IOException, InterruptedException {
        CommandLine.run(TIMEOUT, List.of(executable, "login", "--tls-verify=false", "--authfile", authFile.toString(),
                "-u", user, "-p", password, registry));
    }

    /** The manifest exactly as the registry serves it ({@code skopeo inspect --raw}). */
    public byte[] inspectRaw(String image, String... flags) throws IOException, InterruptedException {
        List<String> withRaw = new ArrayList<>(List.of(flags));
        withRaw.add("--raw");
        return run("inspect", withRaw.toArray(String[]::new), image).stdout();
    }

    private CommandLine.Result run(String subcommand, String[] flags, String... images)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(executable, "--insecure-policy", subcommand));
        command.addAll(List.of(flags));
        command.addAll(List.of(images));
        return CommandLine.run(TIMEOUT, command);
    }
}
