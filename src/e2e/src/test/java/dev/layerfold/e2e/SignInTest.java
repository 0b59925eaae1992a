package dev.layerfold.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layerfold.e2e.client.Crane;
import dev.layerfold.e2e.client.Skopeo;
import dev.layerfold.e2e.oci.Descriptor;
import dev.layerfold.e2e.oci.ImageWriter;
import dev.layerfold.e2e.oci.ImageWriter.Platform;
import dev.layerfold.e2e.oci.OciLayout;
import dev.layerfold.e2e.process.LayerfoldProcess;
import dev.layerfold.e2e.process.RegistryProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.security.crypto.bcrypt.BCrypt;

/**
 * Real clients sign in to a registry that requires it and push and pull through the Docker token flow:
 * skopeo with {@code login} and with {@code --creds}, crane with {@code auth login}. A user whose rules
 * allow only pulls cannot push, and without credentials nothing is served.
 */
class SignInTest {

    private static final Path LOGS = Path.of("target", "registry-logs");

    private final Skopeo skopeo = Skopeo.onPath();

    @Test
    void clientsThatSignedInPushAndPullAndOthersAreTurnedAway(@TempDir Path work) throws Exception {
        Path htpasswd = Files.writeString(work.resolve("htpasswd"), "writer:" + BCrypt.hashpw("writer-secret", BCrypt.gensalt(5))
                + "\nreader:" + BCrypt.hashpw("reader-secret", BCrypt.gensalt(5)) + "\n");
        Map<String, String> auth = Map.of(
                "layerfold.auth.mode", "token",
                "layerfold.auth.htpasswd", htpasswd.toString(),
                "layerfold.auth.access[0].repositories[0]", "e2e/*",
                "layerfold.auth.access[0].users[0]", "writer",
                "layerfold.auth.access[0].actions", "pull,push,delete",
                "layerfold.auth.access[1].repositories[0]", "e2e/*",
                "layerfold.auth.access[1].users[0]", "reader",
                "layerfold.auth.access[1].actions", "pull");
        OciLayout pushed = OciLayout.create(work.resolve("pushed"));
        ImageWriter images = new ImageWriter(pushed);
        Descriptor manifest = images.image(new Platform("linux", "amd64"), List.of(images.layer(60, 4, 50_000)));
        pushed.tag("v1", manifest);

        try (RegistryProcess registry = LayerfoldProcess.start("256m", work.resolve("data"), LOGS, List.of(), auth)) {
            String host = registry.hostAndPort();
            Path authFile = work.resolve("auth.json");
            skopeo.login(host, "writer", "writer-secret", authFile);
            skopeo.copy(pushed.skopeoReference("v1"), "docker://" + host + "/e2e/skopeo:v1", "--dest-tls-verify=false",
                    "--dest-authfile=" + authFile, "--preserve-digests");
            OciLayout pulled = OciLayout.create(work.resolve("pulled"));
            skopeo.copy("docker://" + host + "/e2e/skopeo:v1", pulled.skopeoReference("v1"), "--src-tls-verify=false",
                    "--src-creds=reader:reader-secret", "--preserve-digests");
            assertThat(pulled.readBlob(manifest.digest())).isEqualTo(pushed.readBlob(manifest.digest()));

            Crane crane = Crane.installed().withDockerConfig(Files.createDirectories(work.resolve("docker-config")));
            crane.login(host, "writer", "writer-secret");
            crane.copy(host + "/e2e/skopeo:v1", host + "/e2e/crane:v1");
            assertThat(crane.digest(host + "/e2e/crane:v1")).isEqualTo(manifest.digest());

            assertThatThrownBy(() -> skopeo.copy(pushed.skopeoReference("v1"), "docker://" + host + "/e2e/denied:v1",
                    "--dest-tls-verify=false", "--dest-creds=reader:reader-secret"))
                    .isInstanceOf(AssertionError.class).hasMessageContaining("unauthorized");
            assertThatThrownBy(() -> skopeo.inspectRaw("docker://" + host + "/e2e/skopeo:v1", "--tls-verify=false", "--no-creds"))
                    .isInstanceOf(AssertionError.class).hasMessageContaining("unauthorized");
            assertThat(Files.readString(registry.log())).contains("action=push-manifest repository=e2e/crane target="
                    + manifest.digest() + " tags=v1 caller=writer");
        }
    }
}
