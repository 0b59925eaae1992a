package dev.layerfold.registry.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class AcceptHeaderTest {

    private static final String OCI = "application/vnd.oci.image.manifest.v1+json";

    @Test
    void noAcceptHeaderAcceptsAnything() {
        assertThat(AcceptHeader.accepts(List.of(), OCI)).isTrue();
        assertThat(AcceptHeader.accepts(List.of(" "), OCI)).isTrue();
    }

    @Test
    void matchesListedTypesIgnoringParametersAndCase() {
        assertThat(AcceptHeader.accepts(List.of("text/plain, Application/VND.oci.image.manifest.v1+json; q=0.5"), OCI)).isTrue();
        assertThat(AcceptHeader.accepts(List.of("application/*"), OCI)).isTrue();
        assertThat(AcceptHeader.accepts(List.of("*/*"), OCI)).isTrue();
    }

    @Test
    void qualityZeroExcludesATypeEvenBesideAWildcard() {
        assertThat(AcceptHeader.accepts(List.of(OCI + ";q=0"), OCI)).isFalse();
        assertThat(AcceptHeader.accepts(List.of("*/*, " + OCI + "; q=0"), OCI)).isFalse();
        assertThat(AcceptHeader.accepts(List.of("application/*;q=0, " + OCI), OCI)).isTrue();
    }

    @Test
    void refusesWhenNoEntryMatches() {
        assertThat(AcceptHeader.accepts(List.of("application/vnd.docker.distribution.manifest.v2+json"), OCI)).isFalse();
        assertThat(AcceptHeader.accepts(List.of("text/*"), OCI)).isFalse();
    }
}
