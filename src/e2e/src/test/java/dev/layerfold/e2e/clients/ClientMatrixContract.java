package dev.layerfold.e2e.clients;

import dev.layerfold.e2e.dedup.DedupAdmin;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client matrix: the registry clients people use, each through its own flow (push, pull, and what
 * else it is for), against the packaged registry with sign-in required and dedup settled before every
 * pull. Every manifest digest is checked and every blob pulled is compared with what was pushed. Each
 * backend's class extends this; each client runs once per backend.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ClientMatrixContract {

    private MatrixRegistry registry;

    /** The storage properties the registry runs with. */
    abstract Map<String, String> backend();

    /** Processes on the storage: clients push through the first and pull through the last. */
    abstract int nodeCount();

    /** The backend's name in the lines the matrix prints. */
    abstract String backendName();

    @BeforeAll
    void startRegistry(@TempDir Path data) throws Exception {
        registry = MatrixRegistry.start(data, backend(), nodeCount());
    }

    @AfterAll
    void stopRegistry() throws InterruptedException {
        if (registry != null) {
            registry.close();
        }
    }

    @Test
    void regctl(@TempDir Path work) throws Exception {
        report("regctl", () -> new RegctlFlow().run(registry, work));
    }

    @Test
    void oras(@TempDir Path work) throws Exception {
        report("oras", () -> new OrasFlow().run(registry, work));
    }

    @Test
    void podmanAndBuildah(@TempDir Path work) throws Exception {
        report("podman and buildah", () -> new PodmanFlow().run(registry, work));
    }

    @Test
    void helm(@TempDir Path work) throws Exception {
        report("helm", () -> new HelmFlow().run(registry, work));
    }

    @Test
    void cosign(@TempDir Path work) throws Exception {
        report("cosign", () -> new CosignFlow().run(registry, work));
    }

    @Test
    void docker(@TempDir Path work) throws Exception {
        report("docker and BuildKit", () -> new DockerFlow().run(registry, work));
    }

    private interface Flow {
        String run() throws Exception;
    }

    private void report(String client, Flow flow) throws Exception {
        long start = System.nanoTime();
        String version = flow.run();
        DedupAdmin.Totals totals = registry.settle();
        System.out.printf("[client matrix] %s: %s %s passed in %.1f s (registry so far: %d layers deduplicated, intact %s)%n",
                backendName(), client, version, (System.nanoTime() - start) / 1e9, totals.layersDeduplicated(),
                totals.layersIntact());
    }

}
