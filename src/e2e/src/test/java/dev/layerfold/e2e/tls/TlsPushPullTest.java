package dev.layerfold.e2e.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layerfold.e2e.client.CommandLine;
import dev.layerfold.e2e.client.Skopeo;
import dev.layerfold.e2e.oci.Descriptor;
import dev.layerfold.e2e.oci.ImageWriter;
import dev.layerfold.e2e.oci.ImageWriter.Platform;
import dev.layerfold.e2e.oci.OciLayout;
import dev.layerfold.e2e.process.LayerfoldProcess;
import dev.layerfold.e2e.process.RegistryProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.security.crypto.bcrypt.BCrypt;

/**
 * The registry serves HTTPS from PEM files ({@code server.ssl.certificate} and
 * {@code server.ssl.certificate-private-key}, as docs/security.md shows), and skopeo pushes and pulls
 * over it with certificate verification on, trusting the test's CA only, signed in through the
 * token flow (so the token realm the registry names is an https one too).
 */
class TlsPushPullTest {

    private static final Path LOGS = Path.of("target", "registry-logs");

    private final Skopeo skopeo = Skopeo.onPath();

    @Test
    void skopeoPushesAndPullsOverTlsWithVerificationOn(@TempDir Path work) throws Exception {
        Path certificates = Files.createDirectories(work.resolve("certs"));
        Path key = certificates.resolve("registry.key");
        Path certificate = certificates.resolve("ca.crt"); // self-signed: its own CA, as skopeo's cert dir names it
        CommandLine.run(Duration.ofSeconds(60), List.of("openssl", "req", "-x509", "-newkey", "ec",
                "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key.toString(), "-out", certificate.toString()));
        Path clientCerts = Files.createDirectories(work.resolve("client-certs"));
        Files.copy(certificate, clientCerts.resolve("ca.crt"));
        Path htpasswd = Files.writeString(work.resolve("htpasswd"), "writer:" + BCrypt.hashpw("writer-secret", BCrypt.gensalt(4)) + "\n");

        OciLayout pushed = OciLayout.create(work.resolve("pushed"));
        ImageWriter images = new ImageWriter(pushed);
        Descriptor manifest = images.image(new Platform("linux", "amd64"), List.of(images.layer(70, 4, 60_000)));
        pushed.tag("v1", manifest);

        try (RegistryProcess registry = LayerfoldProcess.startWithTls("256m", work.resolve("data"), LOGS, certificate, key,
                Map.of("layerfold.auth.mode", "token", "layerfold.auth.htpasswd", htpasswd.toString()))) {
            String image = "docker://" + registry.hostAndPort() + "/tls/app:v1";
            assertThat(registry.baseUri().getScheme()).isEqualTo("https");
            skopeo.copy(pushed.skopeoReference("v1"), image, "--dest-cert-dir=" + clientCerts,
                    "--dest-creds=writer:writer-secret", "--preserve-digests");

            OciLayout pulled = OciLayout.create(work.resolve("pulled"));
            skopeo.copy(image, pulled.skopeoReference("v1"), "--src-cert-dir=" + clientCerts,
                    "--src-creds=writer:writer-secret", "--preserve-digests");
            assertThat(pulled.readBlob(manifest.digest())).isEqualTo(pushed.readBlob(manifest.digest()));

            assertThatThrownBy(() -> skopeo.inspectRaw(image, "--creds=writer:writer-secret"))
                    .as("without the CA, skopeo refuses the certificate").isInstanceOf(AssertionError.class)
                    .hasMessageContaining("certificate");
        }
    }
}
