package dev.layerfold.registry.manifest;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.gc.ManifestTargets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * What a stored manifest references, read by the same parser that accepted it. A manifest the parser
 * refuses now fails the collector's rebuild rather than leave its blobs unreferenced.
 */
@Component
public class ParsedManifestTargets implements ManifestTargets {

    private final ManifestParser parser;

    ParsedManifestTargets(ManifestParser parser) {
        this.parser = parser;
    }

    @Override
    public Collection<Digest> of(byte[] manifest, String mediaType) {
        ParsedManifest parsed = parser.parse(manifest, Optional.of(mediaType));
        List<Digest> targets = new ArrayList<>(parsed.blobs());
        targets.addAll(parsed.manifests());
        return targets;
    }
}
