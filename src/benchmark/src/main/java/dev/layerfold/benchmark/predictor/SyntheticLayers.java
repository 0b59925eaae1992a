package dev.layerfold.benchmark.predictor;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.blob.BlobContent;
import dev.layerfold.trace.SyntheticTrace;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * The layers of a synthetic trace as blob content behind the tiers: each layer's bytes are drawn from
 * its trace digest at {@code 1/scale} of its size, so tiers sized as a share of the data hold real,
 * verifiable bytes in little memory. Every layer counts as deduplicated: a miss is a rebuild.
 */
final class SyntheticLayers implements BlobContent {

    /** A layer of the trace as the registry would know it: its real digest and (scaled) size. */
    record Layer(Digest digest, long size) {
    }

    private final Map<String, Layer> byTraceDigest = new HashMap<>();
    private final Map<Digest, String> traceDigests = new HashMap<>();
    private final Map<Digest, Long> sizes = new HashMap<>();

    SyntheticLayers(SyntheticTrace trace, int scale) {
        for (SyntheticTrace.Image image : trace.images().values()) {
            for (SyntheticTrace.Layer layer : image.layers()) {
                byTraceDigest.computeIfAbsent(layer.digest(), d -> {
                    long size = Math.max(1, layer.size() / scale);
                    Digest digest = Digest.sha256(bytes(d, size));
                    traceDigests.put(digest, d);
                    sizes.put(digest, size);
                    return new Layer(digest, size);
                });
            }
        }
    }

    Layer layer(String traceDigest) {
        return byTraceDigest.get(traceDigest);
    }

    long uniqueBytes() {
        return sizes.values().stream().mapToLong(Long::longValue).sum();
    }

    private static byte[] bytes(String traceDigest, long size) {
        byte[] bytes = new byte[Math.toIntExact(size)];
        new SplittableRandom(traceDigest.hashCode()).nextBytes(bytes);
        return bytes;
    }

    @Override
    public Optional<Long> size(Digest digest) {
        return Optional.ofNullable(sizes.get(digest));
    }

    @Override
    public Optional<InputStream> open(Digest digest, long offset, long length) {
        String traceDigest = traceDigests.get(digest);
        if (traceDigest == null) {
            return Optional.empty();
        }
        byte[] all = bytes(traceDigest, sizes.get(digest));
        int count = length < 0 ? all.length - (int) offset : (int) length;
        return Optional.of(new ByteArrayInputStream(all, (int) offset, count));
    }

    @Override
    public Optional<URI> directUrl(Digest digest, Duration validFor) {
        return Optional.empty();
    }

    @Override
    public Optional<Path> localFile(Digest digest) {
        return Optional.empty();
    }
}
