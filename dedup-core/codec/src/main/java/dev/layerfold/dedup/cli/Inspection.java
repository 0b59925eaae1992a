package dev.layerfold.dedup.cli;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the tool found about one layer blob. Fields are null where they do not apply (e.g. no
 * encoder for a plain tar, nothing after a split error); {@code encoderNote} says why a gzip member
 * or zstd frame has no encoder; {@code members} counts gzip members or zstd frames.
 */
record Inspection(String file, String format, String encoder, String encoderCheck, String encoderNote, Integer members, Integer entries, Integer files,
                  Long fileBytes, Long tarBytes, Long blobBytes, Long recipeBytes, String rebuild, String tarDamage, String error) {

    /** "matched": rebuilt with the same sha256; "mismatch": rebuilt bytes differ; "impossible": no encoder; "skipped". */
    static final String MATCHED = "matched";

    static Inspection failed(String file, String format, String error) {
        return new Inspection(file, format, null, null, null, null, null, null, null, null, null, null, null, null, error);
    }

    boolean ok() {
        return error == null && (rebuild == null || !rebuild.startsWith("mismatch"));
    }

    /** The fields in output order, for both the text and the JSON form. */
    Map<String, Object> fields() {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("file", file);
        fields.put("format", format);
        fields.put("encoder", encoder);
        fields.put("encoderCheck", encoderCheck);
        fields.put("encoderNote", encoderNote);
        fields.put("members", members);
        fields.put("entries", entries);
        fields.put("files", files);
        fields.put("fileBytes", fileBytes);
        fields.put("tarBytes", tarBytes);
        fields.put("blobBytes", blobBytes);
        fields.put("recipeBytes", recipeBytes);
        fields.put("rebuild", rebuild);
        fields.put("tarDamage", tarDamage);
        fields.put("error", error);
        return fields;
    }
}
