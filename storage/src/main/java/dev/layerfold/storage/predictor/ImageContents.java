package dev.layerfold.storage.predictor;

import dev.layerfold.storage.Digest;
import java.util.ArrayList;
import java.util.List;

/**
 * What a pushed manifest holds, as the predictor needs it: the layers of an image manifest (in order,
 * with their sizes), or the platform manifests an index lists. Read from the manifest when it is
 * pushed, so the map is exact rather than guessed from pulls.
 */
public sealed interface ImageContents {

    /** An image manifest's distributable layers. */
    record Layers(List<Layer> layers) implements ImageContents {
        public Layers {
            layers = List.copyOf(layers);
        }
    }

    /** An index's manifests, each with its platform ({@code os/architecture[/variant]}, empty if none given). */
    record Index(List<PlatformManifest> manifests) implements ImageContents {
        public Index {
            manifests = List.copyOf(manifests);
        }
    }

    record Layer(Digest digest, long size) {
    }

    record PlatformManifest(Digest manifest, String platform) {
        public PlatformManifest {
            if (platform.contains(" ") || platform.contains("\n")) {
                throw new IllegalArgumentException("platform '" + platform + "' holds whitespace");
            }
        }
    }

    /** One line per entry ({@code L <digest> <size>} or {@code M <digest> <platform>}): how both backends store it. */
    default String encode() {
        StringBuilder text = new StringBuilder();
        switch (this) {
            case Layers(List<Layer> layers) -> layers.forEach(l -> text.append("L ").append(l.digest()).append(' ')
                    .append(l.size()).append('\n'));
            case Index(List<PlatformManifest> manifests) -> manifests.forEach(m -> text.append("M ")
                    .append(m.manifest()).append(' ').append(m.platform()).append('\n'));
        }
        return text.toString();
    }

    static ImageContents decode(String text) {
        List<Layer> layers = new ArrayList<>();
        List<PlatformManifest> manifests = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            String[] fields = line.split(" ", 3);
            switch (fields[0]) {
                case "L" -> layers.add(new Layer(Digest.parse(fields[1]), Long.parseLong(fields[2])));
                case "M" -> manifests.add(new PlatformManifest(Digest.parse(fields[1]), fields.length > 2 ? fields[2] : ""));
                default -> throw new IllegalArgumentException("not an image contents line: " + line);
            }
        }
        return manifests.isEmpty() ? new Layers(layers) : new Index(manifests);
    }
}
