package dev.layerfold.trace;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Traces in the IBM Cloud registry format: a JSON array of flat records whose keys hold dots
 * ({@code "http.request.method"}). Read as a stream, one record at a time; fields a replay does not need
 * are ignored, and records without a method or URI are skipped.
 */
public final class TraceFile {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private TraceFile() {
    }

    /** The records of {@code file} in time order (the published traces are close to it, not always in it). */
    public static List<TraceRecord> read(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return read(in);
        }
    }

    public static List<TraceRecord> read(InputStream in) {
        List<TraceRecord> records = new ArrayList<>();
        try (JsonParser parser = JSON.createParser(in)) {
            if (parser.nextToken() != JsonToken.START_ARRAY) {
                throw new IllegalArgumentException("a trace is a JSON array of records; this one starts with "
                        + parser.currentToken());
            }
            while (parser.nextToken() == JsonToken.START_OBJECT) {
                JsonNode node = parser.readValueAsTree();
                String method = text(node, "http.request.method");
                String uri = text(node, "http.request.uri");
                String timestamp = text(node, "timestamp");
                if (method.isEmpty() || uri.isEmpty() || timestamp.isEmpty()) {
                    continue;
                }
                records.add(new TraceRecord(method, uri, text(node, "http.request.remoteaddr"),
                        node.path("http.response.written").asLong(0), Instant.parse(timestamp)));
            }
        }
        records.sort(Comparator.comparing(TraceRecord::timestamp));
        return records;
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? "" : value.asString();
    }

    public static void write(List<TraceRecord> records, Path file) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            write(records, out);
        }
    }

    public static void write(List<TraceRecord> records, OutputStream out) {
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartArray();
            for (TraceRecord record : records) {
                json.writeStartObject();
                json.writeStringProperty("http.request.method", record.method());
                json.writeStringProperty("http.request.uri", record.uri());
                json.writeStringProperty("http.request.remoteaddr", record.remoteAddr());
                json.writeNumberProperty("http.response.written", record.written());
                json.writeStringProperty("timestamp", record.timestamp().toString());
                json.writeEndObject();
                json.writeRaw('\n');
            }
            json.writeEndArray();
        }
    }
}
