package dev.layerfold.e2e.oci;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** An OCI content descriptor: what a manifest or index says about a blob it references. */
public record Descriptor(String mediaType, String digest, long size) {

    static Descriptor from(JsonNode json) {
        return new Descriptor(json.path("mediaType").asString(), json.path("digest").asString(),
                json.path("size").asLong());
    }

    ObjectNode toJson() {
        ObjectNode json = Json.MAPPER.createObjectNode();
        json.put("mediaType", mediaType);
        json.put("digest", digest);
        json.put("size", size);
        return json;
    }
}
