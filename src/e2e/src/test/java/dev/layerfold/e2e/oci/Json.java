package dev.layerfold.e2e.oci;

import tools.jackson.databind.json.JsonMapper;

/** The one JSON mapper the layout code shares. */
final class Json {

    static final JsonMapper MAPPER = JsonMapper.builder().build();

    private Json() {
    }
}
