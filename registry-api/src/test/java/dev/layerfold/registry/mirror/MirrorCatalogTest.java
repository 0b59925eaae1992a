package dev.layerfold.registry.mirror;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.registry.RegistryHttpTest;
import dev.layerfold.registry.proxy.ScriptedUpstream;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A rule selecting repositories by glob against an upstream that offers no catalog, as Docker Hub (its
 * {@code /v2/_catalog} answers 404 over real HTTP): each run fails as a whole with an error that says so,
 * counted in the rule's failures and the upstream's. (The glob against an upstream with a catalog is the
 * e2e MirrorTest's, against the CNCF registry.)
 */
@Import(MirrorCatalogTest.Meters.class)
class MirrorCatalogTest extends RegistryHttpTest {

    private static final ScriptedUpstream UPSTREAM = ScriptedUpstream.started();
    private static final String RULE = "nocatalog/library/*";

    @TestConfiguration
    static class Meters {
        @Bean
        MeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }
    }

    @Autowired
    private Mirrors mirrors;
    @Autowired
    private MeterRegistry meters;

    @DynamicPropertySource
    static void rule(DynamicPropertyRegistry properties) {
        properties.add("layerfold.proxy.upstreams[0].prefix", () -> "nocatalog");
        properties.add("layerfold.proxy.upstreams[0].url", () -> UPSTREAM.url("open").toString());
        properties.add("layerfold.mirror.rules[0].upstream", () -> "nocatalog");
        properties.add("layerfold.mirror.rules[0].repository", () -> "library/*");
        properties.add("layerfold.mirror.rules[0].interval", () -> "1h");
    }

    @AfterAll
    static void stopUpstream() {
        UPSTREAM.close();
    }

    @Test
    void anUpstreamWithoutACatalogFailsTheRunWithAClearErrorCounted() throws Exception {
        MirrorJob job = mirrors.jobs().getFirst();
        while (job.lastRun().isEmpty()) {
            Thread.sleep(50); // the run at startup
        }
        double failures = meters.find("layerfold.mirror.failures").tag("rule", RULE).counter().count();
        int catalogGets = UPSTREAM.requests("GET", "/open/v2/_catalog");

        job.run();
        MirrorRun run = job.lastRun().orElseThrow();
        assertThat(run.failures()).isEqualTo(1);
        assertThat(run.tagsSelected()).isZero();
        assertThat(run.repositoriesSelected()).isZero();
        assertThat(run.error()).contains("offers no catalog").contains("answered 404").contains(RULE);
        assertThat(meters.find("layerfold.mirror.failures").tag("rule", RULE).counter().count()).isEqualTo(failures + 1);
        assertThat(meters.find("layerfold.upstream.failures").tag("upstream", "nocatalog").tag("reason", "status").counter().count())
                .isGreaterThanOrEqualTo(2);
        assertThat(UPSTREAM.requests("GET", "/open/v2/_catalog")).isEqualTo(catalogGets + 1);
        assertThat(meters.find("layerfold.upstream.requests").tag("upstream", "nocatalog").tag("kind", "catalog").counter().count())
                .isGreaterThanOrEqualTo(2);
    }
}
