package dev.layerfold.server;

import dev.layerfold.predictor.PredictorMetrics;
import dev.layerfold.predictor.Prefetcher;
import dev.layerfold.predictor.TieredBlobContent;
import dev.layerfold.predictor.Tiers;
import dev.layerfold.restore.RestoreOnce;
import dev.layerfold.restore.RestoringBlobContent;
import dev.layerfold.storage.blob.BlobContent;
import dev.layerfold.storage.blob.BlobStore;
import java.util.concurrent.ThreadPoolExecutor;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * What a blob {@code GET} reads, composed here and nowhere else. Outermost first:
 * <ol>
 *   <li>{@link TieredBlobContent}: the predictor's memory and disk tiers, filled ahead of GETs (not
 *       there when the predictor is off);</li>
 *   <li>{@link RestoringBlobContent}: the blob as stored, or else a rebuild of the deduplicated layer,
 *       one per layer however many GETs ask ({@link RestoreOnce});</li>
 *   <li>{@link BlobStore}: the bytes as pushed.</li>
 * </ol>
 * Only the outermost is a default candidate for a {@link BlobContent}; the predictor's fetches ahead
 * ask for the restoring one by name, so they never read from the tiers they fill.
 */
@Configuration(proxyBeanMethods = false)
class ServedContentConfiguration {

    static final String RESTORING = "restoringContent";

    @Bean(name = RESTORING, defaultCandidate = false)
    BlobContent restoringContent(BlobStore blobs, RestoreOnce restores) {
        return new RestoringBlobContent(blobs, restores);
    }

    /** The tiers in front of the restoring content; with the predictor off ({@link PredictorConfiguration} absent), that content itself. */
    @Bean
    BlobContent servedContent(@Qualifier(RESTORING) BlobContent restoring, BlobStore blobs, ObjectProvider<Tiers> tiers,
                              ObjectProvider<Prefetcher> prefetcher,
                              @Qualifier("predictorFetchers") ObjectProvider<ThreadPoolExecutor> fetchers,
                              ObjectProvider<PredictorMetrics> metrics) {
        Tiers predictorTiers = tiers.getIfAvailable();
        if (predictorTiers == null) {
            return restoring;
        }
        return new TieredBlobContent(restoring, layer -> blobs.size(layer).isPresent(), predictorTiers,
                prefetcher.getObject(), fetchers.getObject(), metrics.getObject());
    }
}
