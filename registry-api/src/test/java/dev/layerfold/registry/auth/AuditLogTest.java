package dev.layerfold.registry.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.registry.RegistryHttpTest;
import dev.layerfold.storage.Digest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** Even an open registry records who pushed, tagged and deleted what. */
@ExtendWith(OutputCaptureExtension.class)
class AuditLogTest extends RegistryHttpTest {

    @Test
    void everyPushTagAndDeleteIsOneLineNamingTheCaller(CapturedOutput output) throws Exception {
        String repository = uniqueRepository("audited");
        Digest manifest = pushImage(repository, "v1");
        request("DELETE", "/v2/" + repository + "/manifests/v1").send();

        assertThat(output.getOut())
                .contains("action=push-blob repository=" + repository + " target=sha256:")
                .contains("action=push-manifest repository=" + repository + " target=" + manifest + " tags=v1 caller=anonymous address=127.0.0.1")
                .contains("action=delete-tag repository=" + repository + " target=v1 caller=anonymous");
    }
}
