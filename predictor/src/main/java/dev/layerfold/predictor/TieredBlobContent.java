package dev.layerfold.predictor;

import dev.layerfold.predictor.PredictorMetrics.Source;
import dev.layerfold.predictor.tier.LayerTier;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.blob.BlobContent;
import io.micrometer.core.instrument.Timer;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;

/**
 * The API's blob content with the two tiers in front: a GET is served from memory, else from disk,
 * else (after waiting for a fetch of it already under way here) from the content behind, intact or
 * rebuilt. A whole layer served from behind is copied into a tier as it goes out, so the next client
 * finds it there; the tiers' admission policy decides whether it stays.
 */
public final class TieredBlobContent implements BlobContent {

    private final BlobContent origin;
    private final StoredIntact intact;
    private final Tiers tiers;
    private final Prefetcher prefetcher;
    private final Executor background;
    private final PredictorMetrics metrics;

    /**
     * @param origin the content served when no tier holds a blob
     * @param intact tells intact layers from deduplicated ones
     * @param background where copies made while serving are verified and kept (bounded; a copy it
     *     refuses is dropped)
     */
    public TieredBlobContent(BlobContent origin, StoredIntact intact, Tiers tiers, Prefetcher prefetcher,
                             Executor background, PredictorMetrics metrics) {
        this.origin = origin;
        this.intact = intact;
        this.tiers = tiers;
        this.prefetcher = prefetcher;
        this.background = background;
        this.metrics = metrics;
    }

    @Override
    public Optional<Long> size(Digest digest) throws IOException {
        return origin.size(digest);
    }

    @Override
    public Optional<InputStream> open(Digest digest, long offset, long length) throws IOException {
        Timer.Sample sample = metrics.start();
        Optional<InputStream> fromTier = fromTiers(digest, offset, length, sample);
        if (fromTier.isPresent()) {
            return fromTier;
        }
        Optional<CompletableFuture<Void>> underWay = prefetcher.underWay(digest);
        if (underWay.isPresent()) {
            await(underWay.get());
            fromTier = fromTiers(digest, offset, length, sample);
            if (fromTier.isPresent()) {
                metrics.joined();
                return fromTier;
            }
        }
        Source source = intact.isIntact(digest) ? Source.INTACT : Source.REBUILT;
        Optional<InputStream> behind = origin.open(digest, offset, length);
        if (behind.isEmpty()) {
            return behind;
        }
        metrics.served(source);
        Optional<LayerTier.Fill> fill = Optional.empty();
        if (offset == 0) {
            long size = origin.size(digest).orElse(-1L);
            if (size >= 0 && (length < 0 || length == size)) {
                fill = tiers.forLayer(size).flatMap(tier -> startFill(tier, digest, size));
            }
        }
        return Optional.of(new ServedStream(behind.get(), () -> metrics.finished(sample, source), fill, background));
    }

    private static Optional<LayerTier.Fill> startFill(LayerTier tier, Digest digest, long size) {
        try {
            return tier.fill(digest, size);
        } catch (IOException e) {
            return Optional.empty(); // the tier cannot take it now; the client is served all the same
        }
    }

    private Optional<InputStream> fromTiers(Digest digest, long offset, long length, Timer.Sample sample) throws IOException {
        for (LayerTier tier : tiers.inOrder()) {
            Optional<InputStream> stream = tier.open(digest, offset, length);
            if (stream.isPresent()) {
                Source source = Source.of(tier);
                metrics.served(source);
                return Optional.of(new ServedStream(stream.get(), () -> metrics.finished(sample, source),
                        Optional.empty(), background));
            }
        }
        return Optional.empty();
    }

    private static void await(CompletableFuture<Void> fetch) throws IOException {
        try {
            fetch.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for a fetch ahead");
        } catch (ExecutionException e) {
            // a failed fetch ahead leaves the layer to be served from behind
        }
    }

    /** Redirects only what no tier holds: a layer in a tier is served from it, not from the bucket. */
    @Override
    public Optional<URI> directUrl(Digest digest, Duration validFor) throws IOException {
        return tiers.holds(digest) ? Optional.empty() : origin.directUrl(digest, validFor);
    }

    /** An intact blob on this host's disk goes out by sendfile, as fast as any tier; counted as intact. */
    @Override
    public Optional<Path> localFile(Digest digest) throws IOException {
        Optional<Path> file = origin.localFile(digest);
        if (file.isPresent()) {
            metrics.served(Source.INTACT);
        }
        return file;
    }
}
