package dev.layerfold.registry.manifest;

import dev.layerfold.registry.error.ErrorCode;
import dev.layerfold.registry.error.RegistryException;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.InvalidDigestException;
import dev.layerfold.storage.predictor.ImageContents;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Validates a pushed manifest (OCI image manifest or index, Docker schema 2 manifest or manifest
 * list) and extracts what the registry indexes. Every rejection is MANIFEST_INVALID with a message
 * naming the offending field.
 */
@Component
class ManifestParser {

    private static final Pattern PLATFORM_WORD = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    private final JsonMapper json;

    ManifestParser(JsonMapper json) {
        this.json = json;
    }

    ParsedManifest parse(byte[] bytes, Optional<String> contentType) {
        Optional<String> declared = ManifestMediaTypes.fromContentType(contentType);
        if (declared.isPresent() && ManifestMediaTypes.SCHEMA1.contains(declared.get())) {
            throw schema1();
        }
        JsonNode root = readTree(bytes);
        JsonNode schemaVersion = root.get("schemaVersion");
        // canConvertToInt first: intValue() of a number beyond an int throws instead of answering.
        boolean smallInteger = schemaVersion != null && schemaVersion.isIntegralNumber() && schemaVersion.canConvertToInt();
        if (smallInteger && schemaVersion.intValue() == 1) {
            throw schema1();
        }
        if (!smallInteger || schemaVersion.intValue() != 2) {
            throw invalid("schemaVersion must be 2, was " + schemaVersion);
        }
        String mediaType = mediaType(root, declared);
        boolean index = ManifestMediaTypes.INDEXES.contains(mediaType);

        List<Digest> blobs = new ArrayList<>();
        List<Digest> manifests = new ArrayList<>();
        List<ParsedManifest.Layer> layers = new ArrayList<>();
        List<ImageContents.PlatformManifest> platforms = new ArrayList<>();
        String artifactType = optionalString(root, "artifactType");
        if (index) {
            for (JsonNode descriptor : array(root, "manifests")) {
                Digest child = descriptor(descriptor, "manifests[" + manifests.size() + "]").digest();
                manifests.add(child);
                platforms.add(new ImageContents.PlatformManifest(child, platform(descriptor.get("platform"))));
            }
        } else {
            DescriptorFields config = descriptor(required(root, "config"), "config");
            blobs.add(config.digest());
            if (artifactType == null) {
                artifactType = config.mediaType();
            }
            int position = 0;
            for (JsonNode layer : array(root, "layers")) {
                DescriptorFields fields = descriptor(layer, "layers[" + position++ + "]");
                if (!ManifestMediaTypes.NON_DISTRIBUTABLE_LAYERS.contains(fields.mediaType())) {
                    blobs.add(fields.digest());
                    layers.add(new ParsedManifest.Layer(fields.mediaType(), fields.digest(), fields.size()));
                }
            }
        }
        Optional<Digest> subject = Optional.ofNullable(root.get("subject"))
                .map(node -> descriptor(node, "subject").digest());
        ImageContents contents = index ? new ImageContents.Index(platforms) : new ImageContents.Layers(
                layers.stream().map(layer -> new ImageContents.Layer(layer.digest(), layer.size())).toList());
        return new ParsedManifest(mediaType, List.copyOf(blobs), List.copyOf(manifests), subject, artifactType,
                annotations(root), List.copyOf(layers), contents);
    }

    /**
     * An index entry's platform as {@code os/architecture[/variant]}, or empty when it names none or one
     * that is not plain words (the field is optional and only guides prediction, so it is never refused).
     */
    private static String platform(JsonNode platform) {
        if (platform == null || !platform.isObject()) {
            return "";
        }
        List<String> parts = new ArrayList<>();
        for (String field : List.of("os", "architecture", "variant")) {
            JsonNode value = platform.get(field);
            if (value != null && value.isString() && PLATFORM_WORD.matcher(value.stringValue()).matches()) {
                parts.add(value.stringValue());
            } else if (!field.equals("variant")) {
                return "";
            }
        }
        return String.join("/", parts);
    }

    /** The subject of a stored manifest, read leniently: it was validated when it was pushed. */
    Optional<Digest> subjectOf(byte[] storedManifest) {
        try {
            return Optional.ofNullable(json.readTree(storedManifest).get("subject"))
                    .map(subject -> subject.get("digest"))
                    .filter(JsonNode::isString)
                    .map(digest -> Digest.parse(digest.stringValue()));
        } catch (JacksonException | InvalidDigestException e) {
            return Optional.empty();
        }
    }

    /**
     * Parses the manifest as UTF-8 and nothing else. Jackson would also detect UTF-16 and UTF-32 and skip
     * a byte-order mark, and Go clients read none of them; so the text is decoded strictly first (which
     * also refuses overlong and out-of-range sequences and surrogate halves), and Jackson parses the text.
     */
    private JsonNode readTree(byte[] bytes) {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw invalid("the manifest is not valid UTF-8 (" + e.getMessage() + "); send it as UTF-8, the"
                    + " encoding JSON requires");
        }
        if (text.startsWith("\uFEFF")) {
            throw invalid("the manifest starts with a byte-order mark, which JSON does not allow and Go clients"
                    + " cannot read; send it as UTF-8 without one");
        }
        if (text.indexOf('\0') >= 0) {
            // JSON never holds a raw NUL; UTF-16 and UTF-32 text of ASCII is full of them.
            throw invalid("the manifest contains NUL bytes, as UTF-16 or UTF-32 text does; send it as UTF-8");
        }
        JsonNode root;
        try {
            root = json.readTree(text);
        } catch (JacksonException e) {
            throw invalid("the manifest is not valid JSON: " + e.getOriginalMessage());
        }
        if (root == null || !root.isObject()) {
            throw invalid("the manifest must be a JSON object");
        }
        return root;
    }

    /**
     * The manifest's format: the Content-Type and the mediaType field must agree where both are
     * given; without either, the shape decides (OCI manifests may omit mediaType).
     */
    private static String mediaType(JsonNode root, Optional<String> declared) {
        String field = optionalString(root, "mediaType");
        if (field != null && ManifestMediaTypes.SCHEMA1.contains(field)) {
            throw schema1();
        }
        if (declared.isPresent() && field != null && !declared.get().equals(field)) {
            throw invalid("the Content-Type " + declared.get() + " disagrees with the manifest's mediaType " + field
                    + "; send the manifest with Content-Type: " + field);
        }
        String mediaType = declared.orElse(field);
        if (mediaType == null) {
            mediaType = root.has("manifests") ? ManifestMediaTypes.OCI_INDEX : ManifestMediaTypes.OCI_MANIFEST;
        }
        if (!ManifestMediaTypes.isSupported(mediaType)) {
            throw invalid("unsupported manifest media type " + mediaType + "; push one of "
                    + ManifestMediaTypes.OCI_MANIFEST + ", " + ManifestMediaTypes.OCI_INDEX + ", "
                    + ManifestMediaTypes.DOCKER_MANIFEST + ", " + ManifestMediaTypes.DOCKER_MANIFEST_LIST);
        }
        return mediaType;
    }

    private record DescriptorFields(String mediaType, Digest digest, long size) {
    }

    private static DescriptorFields descriptor(JsonNode node, String path) {
        if (!node.isObject()) {
            throw invalid(path + " must be a descriptor object with mediaType, digest and size");
        }
        JsonNode mediaType = node.get("mediaType");
        if (mediaType == null || !mediaType.isString() || mediaType.stringValue().isBlank()) {
            throw invalid(path + ".mediaType must be a non-empty string");
        }
        JsonNode digest = node.get("digest");
        if (digest == null || !digest.isString()) {
            throw invalid(path + ".digest must be a string such as sha256:<64 hex characters>");
        }
        JsonNode size = node.get("size");
        if (size == null || !size.isIntegralNumber() || !size.canConvertToLong() || size.longValue() < 0) {
            throw invalid(path + ".size must be a non-negative integer");
        }
        try {
            return new DescriptorFields(mediaType.stringValue(), Digest.parse(digest.stringValue()), size.longValue());
        } catch (InvalidDigestException e) {
            throw invalid(path + ".digest: " + e.getMessage());
        }
    }

    private static JsonNode required(JsonNode root, String field) {
        JsonNode node = root.get(field);
        if (node == null || node.isNull()) {
            throw invalid("the manifest has no " + field);
        }
        return node;
    }

    private static Iterable<JsonNode> array(JsonNode root, String field) {
        JsonNode node = required(root, field);
        if (!node.isArray()) {
            throw invalid(field + " must be an array of descriptors");
        }
        return node.values();
    }

    private static String optionalString(JsonNode root, String field) {
        JsonNode node = root.get(field);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isString()) {
            throw invalid(field + " must be a string");
        }
        return node.stringValue();
    }

    private static Map<String, String> annotations(JsonNode root) {
        JsonNode node = root.get("annotations");
        if (node == null || node.isNull()) {
            return Map.of();
        }
        if (!node.isObject()) {
            throw invalid("annotations must be an object of string values");
        }
        Map<String, String> annotations = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> entry : node.properties()) {
            if (!entry.getValue().isString()) {
                throw invalid("annotation " + entry.getKey() + " must have a string value");
            }
            annotations.put(entry.getKey(), entry.getValue().stringValue());
        }
        return annotations;
    }

    private static RegistryException schema1() {
        return invalid("Docker image manifest schema 1 is not supported; push Docker schema 2 or OCI manifests"
                + " instead (any Docker client since 1.10 does; skopeo: --format v2s2 or --format oci)");
    }

    private static RegistryException invalid(String message) {
        return RegistryException.of(ErrorCode.MANIFEST_INVALID, message);
    }
}
