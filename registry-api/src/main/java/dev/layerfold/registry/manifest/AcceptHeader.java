package dev.layerfold.registry.manifest;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.util.MimeTypeUtils;

/**
 * Content negotiation for manifests. A stored manifest is served exactly as pushed, never converted,
 * so the only question is whether the client accepts its media type at all. Entries are parsed by
 * Spring's {@link MediaType}; an entry it cannot parse is ignored.
 */
final class AcceptHeader {

    private AcceptHeader() {
    }

    /**
     * True when no Accept header was sent, or the most specific entry that matches the type (wildcards
     * included) has a quality above 0: {@code q=0} means "not this one" (RFC 9110 §12.5.1).
     */
    static boolean accepts(List<String> acceptHeaders, String mediaType) {
        List<MediaType> entries = acceptHeaders.stream()
                .flatMap(header -> MimeTypeUtils.tokenize(header).stream())
                .flatMap(entry -> parse(entry).stream())
                .toList();
        if (entries.isEmpty()) {
            return true;
        }
        MediaType stored = MediaType.parseMediaType(mediaType);
        return entries.stream()
                .filter(entry -> entry.includes(stored))
                .max(Comparator.comparingInt(AcceptHeader::specificity))
                .map(entry -> entry.getQualityValue() > 0)
                .orElse(false);
    }

    private static int specificity(MediaType entry) {
        return entry.isWildcardType() ? 0 : entry.isWildcardSubtype() ? 1 : 2;
    }

    private static Optional<MediaType> parse(String entry) {
        if (entry.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(MediaType.parseMediaType(entry));
        } catch (InvalidMediaTypeException unparsable) {
            return Optional.empty();
        }
    }
}
