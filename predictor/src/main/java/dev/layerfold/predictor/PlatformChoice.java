package dev.layerfold.predictor;

import dev.layerfold.storage.predictor.ImageContents;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which manifest of an index a client will pull: the platform its user agent names (Docker's says
 * {@code os/linux arch/arm64}), else the one it chose last from an index, else the index's only real
 * platform. Variants are matched loosely: an agent names none.
 */
final class PlatformChoice {

    private static final Pattern OS = Pattern.compile("\\bos/([A-Za-z0-9._-]+)");
    private static final Pattern ARCH = Pattern.compile("\\barch/([A-Za-z0-9._-]+)");

    private PlatformChoice() {
    }

    static Optional<ImageContents.PlatformManifest> choose(ImageContents.Index index, String userAgent, String learned) {
        List<ImageContents.PlatformManifest> real = index.manifests().stream()
                .filter(entry -> !entry.platform().isEmpty() && !entry.platform().startsWith("unknown/")).toList();
        Optional<String> fromAgent = fromAgent(userAgent);
        for (String wanted : fromAgent.isPresent() ? List.of(fromAgent.get()) : List.of(learned)) {
            if (wanted.isEmpty()) {
                continue;
            }
            Optional<ImageContents.PlatformManifest> exact = real.stream().filter(e -> e.platform().equals(wanted)).findFirst();
            if (exact.isPresent()) {
                return exact;
            }
            Optional<ImageContents.PlatformManifest> anyVariant = real.stream()
                    .filter(e -> e.platform().startsWith(wanted + "/")).findFirst();
            if (anyVariant.isPresent()) {
                return anyVariant;
            }
        }
        return real.size() == 1 ? Optional.of(real.getFirst()) : Optional.empty();
    }

    private static Optional<String> fromAgent(String userAgent) {
        Matcher os = OS.matcher(userAgent);
        Matcher arch = ARCH.matcher(userAgent);
        return os.find() && arch.find() ? Optional.of(os.group(1) + "/" + arch.group(1)) : Optional.empty();
    }
}
