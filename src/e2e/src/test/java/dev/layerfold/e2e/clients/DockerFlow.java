package dev.layerfold.e2e.clients;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.e2e.blob.GeneratedContent;
import dev.layerfold.e2e.blob.Sha256;
import dev.layerfold.e2e.client.CommandLine;
import dev.layerfold.e2e.process.Executables;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;

/**
 * docker with a Docker engine: {@code docker build} and {@code docker push}, and BuildKit's
 * {@code docker buildx build --output type=image,push=true}; every local image removed, pulled back and
 * run. Where no engine answers ({@code docker info} fails, or there is no docker CLI) the flow is skipped,
 * in CI too, with a line saying so: an engine cannot be installed from packages on every machine (this
 * project's CI machines have a docker CLI and no daemon).
 */
final class DockerFlow {

    String run(MatrixRegistry registry, Path work) throws Exception {
        Path dockerConfig = Files.createDirectories(work.resolve("docker-config"));
        ClientTool docker = engine().with(Map.of("DOCKER_CONFIG", dockerConfig.toString()));
        for (String host : registry.hosts()) {
            // The engine treats registries on 127.0.0.0/8 as insecure (plain HTTP) without configuration.
            docker.run("login", host, "-u", MatrixRegistry.USER, "-p", MatrixRegistry.PASSWORD);
        }
        Path context = Files.createDirectories(work.resolve("docker-context"));
        Files.copy(PodmanFlow.buildFileLister(work), context.resolve("lsum"));
        try (InputStream shared = new GeneratedContent(9101, 200_000)) {
            Files.copy(shared, context.resolve("shared.bin"));
        }
        Files.writeString(context.resolve("Dockerfile"), "FROM scratch\nCOPY lsum shared.bin /\n");
        List<String> expected = new ArrayList<>();
        for (String file : List.of("lsum", "shared.bin")) {
            expected.add(Sha256.of(Files.readAllBytes(context.resolve(file))).substring("sha256:".length()) + "  /" + file);
        }

        String classic = registry.pushHost() + "/matrix/docker/classic:v1";
        docker.run("build", "-t", classic, context.toString());
        docker.run("push", classic);
        String classicDigest = repoDigest(docker, classic);

        String buildkit = registry.pushHost() + "/matrix/docker/buildkit:v1";
        Path metadata = work.resolve("buildkit-metadata.json");
        docker.run("buildx", "build", "--metadata-file", metadata.toString(),
                "--output", "type=image,name=" + buildkit + ",push=true,registry.insecure=true", context.toString());
        String buildkitDigest = RegistryReader.JSON.readTree(Files.readString(metadata))
                .path("containerimage.digest").asString();
        docker.run("rmi", "--force", classic);
        try {
            docker.run("rmi", "--force", buildkit);
        } catch (AssertionError notInTheImageStore) {
            // BuildKit in a container of its own (docker-container driver) pushes without loading
        }

        registry.settle();
        RegistryReader reader = registry.reader();
        for (String[] image : List.of(new String[] {"matrix/docker/classic", classicDigest},
                new String[] {"matrix/docker/buildkit", buildkitDigest})) {
            assertThat(reader.manifest(image[0], "v1").digest()).as("digest of %s:v1", image[0]).isEqualTo(image[1]);
            // An index, if BuildKit pushed one (with attestations): its manifests are checked with it.
            reader.assertIntact(image[0], image[1]);
            String pulled = registry.pullHost() + "/" + image[0] + ":v1";
            docker.run("pull", pulled);
            assertThat(repoDigest(docker, pulled)).as("digest docker pulled for %s", pulled).isEqualTo(image[1]);
            assertThat(docker.output("run", "--rm", "--network", "none", pulled, "/lsum", "/lsum", "/shared.bin")
                    .lines().toList()).as("digests of the files in a container of %s", pulled).isEqualTo(expected);
            docker.run("rmi", "--force", pulled);
        }
        return docker.output("version", "--format", "{{.Server.Version}}") + " (engine)";
    }

    /** The digest the engine recorded for {@code image} when it pushed or pulled it. */
    private static String repoDigest(ClientTool docker, String image) throws Exception {
        String repository = image.substring(0, image.lastIndexOf(':'));
        for (String repoDigest : docker.output("image", "inspect", "--format", "{{join .RepoDigests \"\\n\"}}", image)
                .lines().toList()) {
            if (repoDigest.startsWith(repository + "@")) {
                return repoDigest.substring(repository.length() + 1);
            }
        }
        throw new AssertionError("docker recorded no digest of " + repository + " for " + image);
    }

    /** The docker CLI, if an engine answers it; otherwise the flow is skipped (in CI too), saying why. */
    private static ClientTool engine() throws Exception {
        Path cli;
        try {
            cli = Executables.find("docker", List.of(), "a Docker engine and its CLI");
        } catch (IllegalStateException missing) {
            return skip("there is no docker CLI");
        }
        try {
            CommandLine.run(Duration.ofSeconds(30), List.of(cli.toString(), "info", "--format", "{{.ServerVersion}}"));
        } catch (AssertionError noEngine) {
            return skip("no Docker engine answers `docker info` (" + noEngine.getMessage().lines().filter(line ->
                    line.contains("Cannot connect") || line.contains("error")).findFirst().orElse("it failed") + ")");
        }
        return ClientTool.require("docker", "a Docker engine and its CLI");
    }

    private static ClientTool skip(String why) {
        System.out.println("[WARNING] DOCKER AND BUILDKIT NOT TESTED: " + why
                + "; the docker flow of the client matrix runs where an engine does");
        Assumptions.abort("no Docker engine: " + why);
        throw new AssertionError("unreachable");
    }
}
