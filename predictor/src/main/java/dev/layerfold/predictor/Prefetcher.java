package dev.layerfold.predictor;

import dev.layerfold.predictor.tier.LayerTier;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.blob.BlobContent;
import dev.layerfold.storage.predictor.ImageContents;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fetches predicted layers into a tier ahead of their GET, on a small bounded pool: an intact layer
 * is read from the blob store (prefetch), a deduplicated one rebuilt through the restore service
 * (preconstruct), both through the API's own blob content. A layer already being fetched in this
 * process is not fetched twice; a GET that arrives meanwhile waits for it ({@link #underWay}). When the
 * pool's queue is full a prediction is dropped (counted), never queued without bound.
 */
public final class Prefetcher {

    private static final Logger log = LoggerFactory.getLogger(Prefetcher.class);

    private final Tiers tiers;
    private final BlobContent origin;
    private final StoredIntact intact;
    private final Executor fetchers;
    private final PredictorMetrics metrics;
    private final Map<Digest, CompletableFuture<Void>> underWay = new ConcurrentHashMap<>();

    /**
     * @param origin the blob content the tiers stand in front of
     * @param intact tells intact layers from deduplicated ones
     * @param fetchers a bounded executor that rejects work when full
     */
    public Prefetcher(Tiers tiers, BlobContent origin, StoredIntact intact, Executor fetchers, PredictorMetrics metrics) {
        this.tiers = tiers;
        this.origin = origin;
        this.intact = intact;
        this.fetchers = fetchers;
        this.metrics = metrics;
    }

    void fetch(ImageContents.Layer layer) {
        if (tiers.holds(layer.digest())) {
            metrics.prefetch("held");
            return;
        }
        CompletableFuture<Void> mine = new CompletableFuture<>();
        if (underWay.putIfAbsent(layer.digest(), mine) != null) {
            metrics.prefetch("held");
            return;
        }
        try {
            fetchers.execute(() -> run(layer, mine));
        } catch (RejectedExecutionException busy) {
            end(layer.digest(), mine);
            metrics.prefetch("busy");
        }
    }

    /** The fetch of {@code layer} under way in this process, if any. */
    Optional<CompletableFuture<Void>> underWay(Digest layer) {
        return Optional.ofNullable(underWay.get(layer));
    }

    /** Completes once every fetch under way now has ended. */
    CompletableFuture<Void> quiet() {
        return CompletableFuture.allOf(underWay.values().toArray(CompletableFuture[]::new));
    }

    private void run(ImageContents.Layer layer, CompletableFuture<Void> mine) {
        Digest digest = layer.digest();
        try {
            if (origin.localFile(digest).isPresent()) {
                metrics.prefetch("local"); // on this host's disk already, sent by sendfile
                return;
            }
            boolean rebuilt = !intact.isIntact(digest);
            String outcome = "too-large";
            for (LayerTier tier : tiers.inOrder()) {
                if (!tier.admits(layer.size())) {
                    continue;
                }
                // A tier whose staging is full passes the layer on to the next, larger one.
                if (tier.stage(digest, layer.size(), () -> origin.open(digest, 0, -1).orElseThrow(() ->
                        new NoSuchFileException(digest + " is neither stored intact nor rebuildable")))) {
                    metrics.prefetched(tier, layer.size());
                    outcome = rebuilt ? "rebuilt" : "fetched";
                    break;
                }
                outcome = "no-room";
            }
            metrics.prefetch(outcome);
        } catch (IOException | RuntimeException e) {
            metrics.prefetch("failed");
            log.debug("fetching {} ahead failed: {}", digest, e.toString());
        } finally {
            end(digest, mine);
        }
    }

    private void end(Digest digest, CompletableFuture<Void> mine) {
        underWay.remove(digest, mine);
        mine.complete(null);
    }
}
