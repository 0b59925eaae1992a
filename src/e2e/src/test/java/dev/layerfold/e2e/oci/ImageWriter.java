package dev.layerfold.e2e.oci;

import dev.layerfold.e2e.blob.GeneratedContent;
import dev.layerfold.e2e.blob.Sha256;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes generated images into an OCI layout: gzip'd tar layers of generated files, configs whose
 * diff_ids match the layers, manifests, indexes, and artifacts that refer to a subject.
 */
public final class ImageWriter {

    private final OciLayout layout;

    public ImageWriter(OciLayout layout) {
        this.layout = layout;
    }

    /** A layer blob and the digest of its uncompressed tar (the config's diff_id). */
    public record Layer(Descriptor blob, String diffId) {
    }

    /** A platform an image is built for, as an index names it. */
    public record Platform(String os, String architecture) {
    }

    /** A gzip'd tar of {@code files} generated files of {@code fileSize} bytes each, all derived from {@code seed}. */
    public Layer layer(long seed, int files, int fileSize) throws IOException {
        Path tarGz = Files.createTempFile(layout.root(), "layer-", ".tmp");
        MessageDigest compressed = Sha256.newDigest();
        MessageDigest uncompressed = Sha256.newDigest();
        try (OutputStream file = Files.newOutputStream(tarGz);
             GZIPOutputStream gzip = new GZIPOutputStream(new DigestOutputStream(file, compressed));
             TarArchiveOutputStream tar = new TarArchiveOutputStream(new DigestOutputStream(gzip, uncompressed))) {
            for (int i = 0; i < files; i++) {
                TarArchiveEntry entry = new TarArchiveEntry("data/layer-" + seed + "/file-" + i + ".bin");
                entry.setSize(fileSize);
                entry.setModTime(0);
                tar.putArchiveEntry(entry);
                try (InputStream content = new GeneratedContent(seed * 1_000_003 + i, fileSize)) {
                    content.transferTo(tar);
                }
                tar.closeArchiveEntry();
            }
        }
        Descriptor blob = layout.moveInBlob(MediaTypes.LAYER_TAR_GZIP, tarGz, Sha256.format(compressed));
        return new Layer(blob, Sha256.format(uncompressed));
    }

    /** A config and an image manifest over {@code layers}. */
    public Descriptor image(Platform platform, List<Layer> layers) throws IOException {
        ObjectNode config = Json.MAPPER.createObjectNode();
        config.put("architecture", platform.architecture());
        config.put("os", platform.os());
        config.putObject("config").putArray("Cmd").add("/bin/true");
        ObjectNode rootfs = config.putObject("rootfs");
        rootfs.put("type", "layers");
        ArrayNode diffIds = rootfs.putArray("diff_ids");
        layers.forEach(layer -> diffIds.add(layer.diffId()));
        Descriptor configBlob = layout.writeJson(MediaTypes.IMAGE_CONFIG, config);

        ObjectNode manifest = Json.MAPPER.createObjectNode();
        manifest.put("schemaVersion", 2);
        manifest.put("mediaType", MediaTypes.IMAGE_MANIFEST);
        manifest.set("config", configBlob.toJson());
        ArrayNode layerArray = manifest.putArray("layers");
        layers.forEach(layer -> layerArray.add(layer.blob().toJson()));
        return layout.writeJson(MediaTypes.IMAGE_MANIFEST, manifest);
    }

    /** An image index over per-platform manifests. */
    public Descriptor index(List<Platform> platforms, List<Descriptor> manifests) throws IOException {
        ObjectNode index = Json.MAPPER.createObjectNode();
        index.put("schemaVersion", 2);
        index.put("mediaType", MediaTypes.IMAGE_INDEX);
        ArrayNode entries = index.putArray("manifests");
        for (int i = 0; i < manifests.size(); i++) {
            ObjectNode entry = manifests.get(i).toJson();
            entry.putObject("platform")
                    .put("architecture", platforms.get(i).architecture())
                    .put("os", platforms.get(i).os());
            entries.add(entry);
        }
        return layout.writeJson(MediaTypes.IMAGE_INDEX, index);
    }

    /**
     * An artifact (an image manifest with an {@code artifactType} and the empty config) carrying one
     * JSON payload and pointing at {@code subject}, as signatures and SBOMs do.
     */
    public Descriptor artifact(String artifactType, String payload, Descriptor subject) throws IOException {
        Descriptor emptyConfig = layout.writeBlob(MediaTypes.EMPTY, "{}".getBytes(StandardCharsets.UTF_8));
        Descriptor payloadBlob = layout.writeBlob("application/json", payload.getBytes(StandardCharsets.UTF_8));
        ObjectNode manifest = Json.MAPPER.createObjectNode();
        manifest.put("schemaVersion", 2);
        manifest.put("mediaType", MediaTypes.IMAGE_MANIFEST);
        manifest.put("artifactType", artifactType);
        manifest.set("config", emptyConfig.toJson());
        manifest.putArray("layers").add(payloadBlob.toJson());
        manifest.set("subject", subject.toJson());
        return layout.writeJson(MediaTypes.IMAGE_MANIFEST, manifest);
    }
}
