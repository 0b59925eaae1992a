package dev.layerfold.registry.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layerfold.registry.error.RegistryException;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.InvalidRepositoryNameException;
import dev.layerfold.storage.RepositoryName;
import org.junit.jupiter.api.Test;

class RoutePathTest {

    private static final Digest DIGEST = Digest.sha256(new byte[0]);

    @Test
    void endpointIsFoundFromTheEndSoNamesMayContainEndpointWords() {
        assertThat(RoutePath.parse("/v2/a/manifests/b/manifests/latest"))
                .isEqualTo(new Route.Manifest(RepositoryName.of("a/manifests/b"), "latest"));
        assertThat(RoutePath.parse("/v2/x/blobs/blobs/uploads/"))
                .isEqualTo(new Route.UploadStart(RepositoryName.of("x/blobs")));
        assertThat(RoutePath.parse("/v2/tags/tags/list")).isEqualTo(new Route.TagList(RepositoryName.of("tags")));
    }

    @Test
    void recognisesEveryEndpoint() {
        RepositoryName name = RepositoryName.of("library/alpine");
        assertThat(RoutePath.parse("/v2/")).isEqualTo(new Route.Base());
        assertThat(RoutePath.parse("/v2")).isEqualTo(new Route.Base());
        assertThat(RoutePath.parse("/v2/_catalog")).isEqualTo(new Route.Catalog());
        assertThat(RoutePath.parse("/v2/library/alpine/blobs/" + DIGEST)).isEqualTo(new Route.Blob(name, DIGEST));
        assertThat(RoutePath.parse("/v2/library/alpine/blobs/uploads")).isEqualTo(new Route.UploadStart(name));
        assertThat(RoutePath.parse("/v2/library/alpine/blobs/uploads/abc-1")).isEqualTo(new Route.Upload(name, "abc-1"));
        assertThat(RoutePath.parse("/v2/library/alpine/tags/list")).isEqualTo(new Route.TagList(name));
        assertThat(RoutePath.parse("/v2/library/alpine/referrers/" + DIGEST)).isEqualTo(new Route.Referrers(name, DIGEST));
    }

    @Test
    void percentEncodedDigestIsDecodedButPercentEncodedNameIsRefused() {
        assertThat(RoutePath.parse("/v2/a/manifests/sha256%3A" + DIGEST.hex()))
                .isEqualTo(new Route.Manifest(RepositoryName.of("a"), DIGEST.toString()));
        assertThatThrownBy(() -> RoutePath.parse("/v2/%61/tags/list")).isInstanceOf(InvalidRepositoryNameException.class);
    }

    @Test
    void pathOutsideTheApiIsAnUnknownEndpoint() {
        assertThatThrownBy(() -> RoutePath.parse("/v2x/tags/list")).isInstanceOf(RegistryException.class);
        assertThatThrownBy(() -> RoutePath.parse("/v2/a/b")).isInstanceOf(RegistryException.class);
    }
}
