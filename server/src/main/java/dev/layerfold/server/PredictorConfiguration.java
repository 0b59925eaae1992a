package dev.layerfold.server;

import dev.layerfold.predictor.ImageLayersFromManifests;
import dev.layerfold.predictor.PredictorMetrics;
import dev.layerfold.predictor.Prefetcher;
import dev.layerfold.predictor.PullLearner;
import dev.layerfold.predictor.Tiers;
import dev.layerfold.predictor.tier.LayerTier;
import dev.layerfold.registry.api.PushListener;
import dev.layerfold.registry.manifest.StoredManifests;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.blob.BlobContent;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.metadata.MetadataStore;
import dev.layerfold.storage.predictor.ImageContents;
import dev.layerfold.storage.predictor.ImageLayers;
import dev.layerfold.storage.predictor.ImageRef;
import dev.layerfold.storage.predictor.PredictorStorage;
import dev.layerfold.storage.predictor.PullHistory;
import dev.layerfold.storage.predictor.PullHistoryLimits;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The predictor and its tiers in front of the restore service's blob content ({@code layerfold.predictor.*}).
 * With {@code mode=off} none of this exists and the API serves the restore service's content directly.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(PredictorProperties.class)
@ConditionalOnExpression("'${layerfold.predictor.mode:predict}'.toLowerCase() != 'off'")
public class PredictorConfiguration {

    private static final Logger log = LoggerFactory.getLogger(PredictorConfiguration.class);

    /** How often layers fetched ahead and never asked for are dropped. */
    private static final Duration DROP_UNUSED = Duration.ofSeconds(10);

    /** How often idle users are forgotten, where the store does not expire them itself (SQLite: a table scan). */
    private static final Duration FORGET_IDLE = Duration.ofHours(1);

    @Bean
    Tiers tiers(PredictorProperties predictor, StorageProperties storage) throws IOException {
        return new Tiers(LayerTier.inMemory(predictor.memoryBytes(), predictor.hold(), Clock.systemUTC()),
                LayerTier.onDisk(predictor.diskDirectory(storage), predictor.diskSize().toBytes(), predictor.hold(),
                        Clock.systemUTC()));
    }

    @Bean
    PredictorMetrics predictorMetrics(MeterRegistry registry, Tiers tiers) {
        return new PredictorMetrics(registry, tiers);
    }

    /** Fetches ahead; a small pool with a bounded queue that refuses work when full. */
    @Bean(destroyMethod = "shutdownNow")
    ThreadPoolExecutor predictorFetchers(PredictorProperties predictor) {
        return bounded("predictor-fetch-", predictor.fetchers(), predictor.fetchQueue());
    }

    /** Learns from pulls in the order they came, and verifies copies made while serving. */
    @Bean(destroyMethod = "shutdownNow")
    ThreadPoolExecutor predictorLearning(PredictorProperties predictor) {
        return bounded("predictor-learn-", 1, predictor.learnQueue());
    }

    private static ThreadPoolExecutor bounded(String name, int threads, int queue) {
        return new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(queue),
                Thread.ofPlatform().daemon().name(name, 0).factory(), new ThreadPoolExecutor.AbortPolicy());
    }

    @Bean
    Prefetcher prefetcher(Tiers tiers, @Qualifier(ServedContentConfiguration.RESTORING) BlobContent origin, BlobStore blobs,
                          @Qualifier("predictorFetchers") ThreadPoolExecutor fetchers, PredictorMetrics metrics) {
        return new Prefetcher(tiers, origin, layer -> blobs.size(layer).isPresent(), fetchers, metrics);
    }


    @Bean
    @ConditionalOnExpression("'${layerfold.predictor.mode:predict}'.toLowerCase() == 'predict'")
    ImageLayers imageLayers(MetadataStore metadata, StoredManifests manifests) {
        return new ImageLayersFromManifests(storage(metadata).imageLayers(), manifests);
    }

    /** Maps each stored manifest to its layers before the push succeeds: a client that pulls right after its push is predicted. */
    @Bean
    @ConditionalOnExpression("'${layerfold.predictor.mode:predict}'.toLowerCase() == 'predict'")
    PushListener imageMapOnPush(ImageLayers images) {
        return new PushListener() {
            @Override
            public void manifestStored(RepositoryName repository, Digest manifest, ImageContents contents) throws IOException {
                images.put(new ImageRef(repository, manifest), contents);
            }

            @Override
            public void manifestDeleted(RepositoryName repository, Digest manifest) throws IOException {
                images.remove(new ImageRef(repository, manifest));
            }
        };
    }

    @Bean
    @ConditionalOnExpression("'${layerfold.predictor.mode:predict}'.toLowerCase() == 'predict'")
    PullHistory pullHistory(MetadataStore metadata, PredictorProperties predictor) {
        return storage(metadata).pullHistory(new PullHistoryLimits(predictor.forgetAfter(), predictor.layersPerUser(),
                PullHistoryLimits.DEFAULT.decayAt()));
    }

    @Bean
    @ConditionalOnExpression("'${layerfold.predictor.mode:predict}'.toLowerCase() == 'predict'")
    PullLearner pullLearner(ImageLayers images, PullHistory history, PredictorProperties predictor, Prefetcher prefetcher,
                            @Qualifier("predictorLearning") ThreadPoolExecutor learning, PredictorMetrics metrics) {
        return new PullLearner(images, history, predictor.threshold(), prefetcher, learning, Clock.systemUTC(), metrics);
    }

    @Bean(destroyMethod = "shutdownNow")
    ScheduledExecutorService predictorUpkeep(Tiers tiers, ObjectProvider<PullHistory> history) {
        ScheduledExecutorService upkeep = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("predictor-upkeep").factory());
        every(upkeep, DROP_UNUSED, "dropping unused layers fetched ahead", tiers::dropStale);
        every(upkeep, FORGET_IDLE, "forgetting idle users", () -> {
            PullHistory pulls = history.getIfAvailable();
            if (pulls != null) {
                pulls.forgetIdle(Clock.systemUTC().instant());
            }
        });
        return upkeep;
    }

    /** Runs {@code task} every {@code period}; a failure is logged and the next run comes all the same. */
    private static void every(ScheduledExecutorService upkeep, Duration period, String what, Chore task) {
        upkeep.scheduleWithFixedDelay(() -> {
            try {
                task.run();
            } catch (IOException | RuntimeException e) {
                log.warn("{} failed, tried again in {}: {}", what, period, e.toString());
            }
        }, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    }

    @FunctionalInterface
    private interface Chore {
        void run() throws IOException;
    }

    private static PredictorStorage storage(MetadataStore metadata) {
        if (metadata instanceof PredictorStorage storage) {
            return storage;
        }
        throw new IllegalStateException("metadata backend " + metadata.getClass().getSimpleName()
                + " keeps no predictor maps; set layerfold.predictor.mode=cache or off");
    }
}
