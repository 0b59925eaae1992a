package dev.layerfold.registry.manifest;

import java.util.List;

/**
 * Content negotiation for manifests. A stored manifest is served exactly as pushed, never converted,
 * so the only question is whether the client accepts its media type at all.
 */
final class AcceptHeader {

    private AcceptHeader() {
    }

    /** True when no Accept header was sent, or one of its entries matches the type (wildcards included). */
    static boolean accepts(List<String> acceptHeaders, String mediaType) {
        boolean anyEntry = false;
        for (String header : acceptHeaders) {
            for (String entry : header.split(",")) {
                String type = ManifestMediaTypes.withoutParameters(entry);
                if (type.isEmpty()) {
                    continue;
                }
                anyEntry = true;
                if (type.equals("*/*") || type.equals(mediaType)
                        || (type.endsWith("/*") && mediaType.startsWith(type.substring(0, type.length() - 1)))) {
                    return true;
                }
            }
        }
        return !anyEntry;
    }
}
