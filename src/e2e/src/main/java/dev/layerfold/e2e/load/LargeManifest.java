package dev.layerfold.e2e.load;

import dev.layerfold.e2e.blob.BlobClient;
import dev.layerfold.e2e.blob.Sha256;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * An OCI image manifest of one config and one layer, padded with an annotation to an exact size, such
 * as the 4 MiB the spec asks registries to accept: the largest request body a registry holds in memory.
 */
public final class LargeManifest {

    public static final String MEDIA_TYPE = "application/vnd.oci.image.manifest.v1+json";

    private LargeManifest() {
    }

    /**
     * Pushes the config and layer blobs to {@code repository} and returns a manifest of them,
     * {@code size} bytes long, its padding made of {@code fill}.
     */
    public static byte[] of(BlobClient client, String repository, int size, char fill) throws IOException {
        byte[] config = "{\"architecture\":\"amd64\",\"os\":\"linux\"}".getBytes(StandardCharsets.UTF_8);
        byte[] layer = ("layer of " + repository).getBytes(StandardCharsets.UTF_8);
        String configDigest = push(client, repository, config);
        String layerDigest = push(client, repository, layer);
        String head = "{\"schemaVersion\":2,\"mediaType\":\"" + MEDIA_TYPE + "\",\"config\":{\"mediaType\":"
                + "\"application/vnd.oci.image.config.v1+json\",\"digest\":\"" + configDigest + "\",\"size\":"
                + config.length + "},\"layers\":[{\"mediaType\":\"application/vnd.oci.image.layer.v1.tar\","
                + "\"digest\":\"" + layerDigest + "\",\"size\":" + layer.length + "}],\"annotations\":{\"padding\":\"";
        String tail = "\"}}";
        int padding = size - head.length() - tail.length();
        if (padding < 0) {
            throw new IllegalArgumentException("a manifest cannot be as small as " + size + " bytes");
        }
        return (head + String.valueOf(fill).repeat(padding) + tail).getBytes(StandardCharsets.UTF_8);
    }

    private static String push(BlobClient client, String repository, byte[] blob) throws IOException {
        String digest = Sha256.of(blob);
        client.pushMonolithic(repository, digest, blob.length, new ByteArrayInputStream(blob));
        return digest;
    }
}
