package dev.layerfold.e2e.oci;

/** The OCI media types the tests write. */
public final class MediaTypes {

    public static final String IMAGE_MANIFEST = "application/vnd.oci.image.manifest.v1+json";
    public static final String IMAGE_INDEX = "application/vnd.oci.image.index.v1+json";
    public static final String IMAGE_CONFIG = "application/vnd.oci.image.config.v1+json";
    public static final String LAYER_TAR_GZIP = "application/vnd.oci.image.layer.v1.tar+gzip";
    public static final String LAYER_TAR = "application/vnd.oci.image.layer.v1.tar";
    public static final String LAYER_TAR_ZSTD = "application/vnd.oci.image.layer.v1.tar+zstd";
    public static final String EMPTY = "application/vnd.oci.empty.v1+json";

    private MediaTypes() {
    }
}
