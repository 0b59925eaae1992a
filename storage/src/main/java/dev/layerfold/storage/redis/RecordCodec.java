package dev.layerfold.storage.redis;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.metadata.Descriptor;
import dev.layerfold.storage.metadata.ManifestRecord;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * Records as single-line text, the same in the bucket and in Redis: space-separated fields, each
 * URL-encoded (so spaces, quotes and line breaks in annotations cannot break a record) and a lone
 * {@code ~} for null, which URL encoding never produces.
 */
final class RecordCodec {

    private static final String NULL = "~";

    private RecordCodec() {
    }

    static String manifest(ManifestRecord manifest) {
        return join(manifest.digest().toString(), manifest.mediaType(), Long.toString(manifest.size()));
    }

    static ManifestRecord manifest(String encoded) {
        String[] fields = split(encoded);
        return new ManifestRecord(Digest.parse(fields[0]), fields[1], Long.parseLong(fields[2]));
    }

    /** Annotations follow the fixed fields as key, value pairs in key order. */
    static String descriptor(Descriptor descriptor) {
        StringJoiner joined = new StringJoiner(" ");
        joined.add(encode(descriptor.mediaType())).add(encode(descriptor.digest().toString()))
                .add(Long.toString(descriptor.size())).add(encode(descriptor.artifactType()));
        new TreeMap<>(descriptor.annotations()).forEach((key, value) -> joined.add(encode(key)).add(encode(value)));
        return joined.toString();
    }

    static Descriptor descriptor(String encoded) {
        String[] fields = split(encoded);
        Map<String, String> annotations = new TreeMap<>();
        for (int i = 4; i + 1 < fields.length; i += 2) {
            annotations.put(fields[i], fields[i + 1]);
        }
        return new Descriptor(fields[0], Digest.parse(fields[1]), Long.parseLong(fields[2]), fields[3], annotations);
    }

    private static String join(String... fields) {
        StringJoiner joined = new StringJoiner(" ");
        for (String field : fields) {
            joined.add(encode(field));
        }
        return joined.toString();
    }

    private static String[] split(String encoded) {
        String[] fields = encoded.split(" ", -1);
        for (int i = 0; i < fields.length; i++) {
            fields[i] = NULL.equals(fields[i]) ? null : URLDecoder.decode(fields[i], StandardCharsets.UTF_8);
        }
        return fields;
    }

    private static String encode(String field) {
        return field == null ? NULL : URLEncoder.encode(field, StandardCharsets.UTF_8);
    }
}
