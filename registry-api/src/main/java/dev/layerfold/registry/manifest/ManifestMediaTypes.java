package dev.layerfold.registry.manifest;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/** The manifest formats this registry stores, and the ones it recognises only to refuse them. */
final class ManifestMediaTypes {

    static final String OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json";
    static final String OCI_INDEX = "application/vnd.oci.image.index.v1+json";
    static final String DOCKER_MANIFEST = "application/vnd.docker.distribution.manifest.v2+json";
    static final String DOCKER_MANIFEST_LIST = "application/vnd.docker.distribution.manifest.list.v2+json";

    static final Set<String> IMAGE_MANIFESTS = Set.of(OCI_MANIFEST, DOCKER_MANIFEST);
    static final Set<String> INDEXES = Set.of(OCI_INDEX, DOCKER_MANIFEST_LIST);

    /** Docker image manifest schema 1, deprecated since 2017 and refused here. */
    static final Set<String> SCHEMA1 = Set.of(
            "application/vnd.docker.distribution.manifest.v1+json",
            "application/vnd.docker.distribution.manifest.v1+prettyjws");

    /** Layers clients fetch from their {@code urls}, which registries do not hold. */
    static final Set<String> NON_DISTRIBUTABLE_LAYERS = Set.of(
            "application/vnd.oci.image.layer.nondistributable.v1.tar",
            "application/vnd.oci.image.layer.nondistributable.v1.tar+gzip",
            "application/vnd.oci.image.layer.nondistributable.v1.tar+zstd",
            "application/vnd.docker.image.rootfs.foreign.diff.tar.gzip");

    /** Content-Types that say nothing about the manifest format, so its mediaType field decides. */
    private static final Set<String> UNSPECIFIC = Set.of("", "application/json", "application/octet-stream", "text/plain");

    private ManifestMediaTypes() {
    }

    static boolean isSupported(String mediaType) {
        return IMAGE_MANIFESTS.contains(mediaType) || INDEXES.contains(mediaType);
    }

    /** The media type a Content-Type header names, without parameters; empty if it names none. */
    static Optional<String> fromContentType(Optional<String> contentType) {
        String type = contentType.map(ManifestMediaTypes::withoutParameters).orElse("");
        return UNSPECIFIC.contains(type) ? Optional.empty() : Optional.of(type);
    }

    static String withoutParameters(String headerValue) {
        int semicolon = headerValue.indexOf(';');
        return (semicolon < 0 ? headerValue : headerValue.substring(0, semicolon)).trim().toLowerCase(Locale.ROOT);
    }
}
