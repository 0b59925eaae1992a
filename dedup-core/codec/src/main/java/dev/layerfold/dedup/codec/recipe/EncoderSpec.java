package dev.layerfold.dedup.codec.recipe;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Which DEFLATE encoder reproduces a gzip member, and with which settings: a family name
 * ({@code go}, {@code zlib}, {@code pigz}, ...), a level, and family-specific integer parameters
 * (e.g. pigz's block size). {@link #NONE} means no known encoder reproduces the member.
 */
public record EncoderSpec(String family, int level, List<Integer> params) {

    public static final EncoderSpec NONE = new EncoderSpec("none", 0, List.of());

    public EncoderSpec {
        if (family == null || family.isEmpty() || family.length() > 32 || !family.chars().allMatch(c -> c > ' ' && c < 127)) {
            throw new IllegalArgumentException("encoder family must be 1..32 printable ASCII characters, got " + family);
        }
        params = List.copyOf(params);
    }

    public static EncoderSpec of(String family, int level, Integer... params) {
        return new EncoderSpec(family, level, List.of(params));
    }

    public boolean isNone() {
        return equals(NONE);
    }

    /** A short human-readable name, e.g. {@code go-6} or {@code pigz-9/131072}. */
    public String label() {
        if (isNone()) {
            return "none";
        }
        String suffix = params.isEmpty() ? "" : params.stream().map(String::valueOf).collect(Collectors.joining("/", "/", ""));
        return family + "-" + level + suffix;
    }

    @Override
    public String toString() {
        return label();
    }
}
