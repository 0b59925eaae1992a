package dev.layerfold.e2e.oci;

import dev.layerfold.e2e.blob.Sha256;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashSet;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An OCI image layout directory ({@code oci-layout}, {@code index.json}, {@code blobs/sha256/...}):
 * the form in which skopeo and crane read images to push and write images they pulled.
 */
public final class OciLayout {

    private static final String REF_NAME = "org.opencontainers.image.ref.name";

    private final Path root;

    private OciLayout(Path root) {
        this.root = root;
    }

    /** Creates an empty layout in {@code root}. */
    public static OciLayout create(Path root) throws IOException {
        Files.createDirectories(root.resolve("blobs/sha256"));
        Files.writeString(root.resolve("oci-layout"), "{\"imageLayoutVersion\":\"1.0.0\"}");
        ObjectNode index = Json.MAPPER.createObjectNode();
        index.put("schemaVersion", 2);
        index.putArray("manifests");
        Files.write(root.resolve("index.json"), Json.MAPPER.writeValueAsBytes(index));
        return new OciLayout(root);
    }

    /** A layout some client wrote. */
    public static OciLayout open(Path root) {
        if (!Files.isRegularFile(root.resolve("index.json"))) {
            throw new IllegalArgumentException(root + " is not an OCI image layout: it has no index.json");
        }
        return new OciLayout(root);
    }

    public Path root() {
        return root;
    }

    /** {@code oci:DIR:tag}, how skopeo names an image in this layout. */
    public String skopeoReference(String tag) {
        return "oci:" + root + ":" + tag;
    }

    public Descriptor writeBlob(String mediaType, byte[] content) throws IOException {
        String digest = Sha256.of(content);
        Files.write(blobPath(digest), content);
        return new Descriptor(mediaType, digest, content.length);
    }

    /** Moves {@code file}, whose digest the caller computed while writing it, into the layout. */
    public Descriptor moveInBlob(String mediaType, Path file, String digest) throws IOException {
        long size = Files.size(file);
        Files.move(file, blobPath(digest), StandardCopyOption.REPLACE_EXISTING);
        return new Descriptor(mediaType, digest, size);
    }

    Descriptor writeJson(String mediaType, JsonNode document) throws IOException {
        return writeBlob(mediaType, Json.MAPPER.writeValueAsBytes(document));
    }

    /** Names the manifest or index {@code manifest} as {@code tag} in {@code index.json}. */
    public void tag(String tag, Descriptor manifest) throws IOException {
        ObjectNode index = (ObjectNode) Json.MAPPER.readTree(root.resolve("index.json").toFile());
        ObjectNode entry = manifest.toJson();
        entry.putObject("annotations").put(REF_NAME, tag);
        ((ArrayNode) index.path("manifests")).add(entry);
        Files.write(root.resolve("index.json"), Json.MAPPER.writeValueAsBytes(index));
    }

    /** The descriptor {@code index.json} records for {@code tag}. */
    public Descriptor tagged(String tag) throws IOException {
        JsonNode index = Json.MAPPER.readTree(root.resolve("index.json").toFile());
        for (JsonNode entry : index.path("manifests")) {
            if (tag.equals(entry.path("annotations").path(REF_NAME).asString())) {
                return Descriptor.from(entry);
            }
        }
        throw new AssertionError(root + "/index.json names no manifest " + tag + ": " + index);
    }

    public byte[] readBlob(String digest) throws IOException {
        return Files.readAllBytes(blobPath(digest));
    }

    public boolean hasBlob(String digest) {
        return Files.isRegularFile(blobPath(digest));
    }

    /** The digest of the bytes stored under {@code digest}: equal to it unless the file is corrupt. */
    public String digestOfStored(String digest) throws IOException {
        try (InputStream in = Files.newInputStream(blobPath(digest))) {
            return Sha256.of(in);
        }
    }

    /**
     * Every blob {@code manifestDigest} needs, itself included: for an index its manifests and theirs,
     * for a manifest its config and layers. (A subject is a reference, not a part, so it is left out.)
     */
    public Set<String> closure(String manifestDigest) throws IOException {
        Set<String> digests = new LinkedHashSet<>();
        collect(manifestDigest, digests);
        return digests;
    }

    private void collect(String manifestDigest, Set<String> digests) throws IOException {
        digests.add(manifestDigest);
        JsonNode manifest = Json.MAPPER.readTree(readBlob(manifestDigest));
        for (JsonNode child : manifest.path("manifests")) {
            collect(child.path("digest").asString(), digests);
        }
        if (manifest.has("config")) {
            digests.add(manifest.path("config").path("digest").asString());
        }
        for (JsonNode layer : manifest.path("layers")) {
            digests.add(layer.path("digest").asString());
        }
    }

    private Path blobPath(String digest) {
        if (!digest.matches("sha256:[0-9a-f]{64}")) {
            throw new IllegalArgumentException("not a sha256 digest: " + digest);
        }
        return root.resolve("blobs/sha256").resolve(digest.substring("sha256:".length()));
    }
}
