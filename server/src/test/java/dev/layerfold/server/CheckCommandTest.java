package dev.layerfold.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code java -jar layerfold.jar check}: the check of a registry's storage, without serving it. */
class CheckCommandTest {

    @Test
    void anEmptyRegistryChecksClean(@TempDir Path data) throws Exception {
        int status = CheckCommand.run(new String[] {"check", "--repair", "--layerfold.storage.path=" + data});

        assertThat(status).isZero();
    }
}
