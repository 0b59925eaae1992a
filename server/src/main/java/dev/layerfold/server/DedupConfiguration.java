package dev.layerfold.server;

import dev.layerfold.dedup.codec.LayerRebuilder;
import dev.layerfold.dedup.codec.LayerSplitter;
import dev.layerfold.dedup.codec.identify.StandardEncoders;
import dev.layerfold.dedup.pipeline.ColdFirst;
import dev.layerfold.dedup.pipeline.DedupLimits;
import dev.layerfold.dedup.pipeline.DedupMetrics;
import dev.layerfold.dedup.pipeline.DedupSettings;
import dev.layerfold.dedup.pipeline.DedupWorker;
import dev.layerfold.dedup.pipeline.IntactCopyBudget;
import dev.layerfold.dedup.pipeline.IntactCopyPolicy;
import dev.layerfold.dedup.pipeline.IntactCopySweeper;
import dev.layerfold.dedup.pipeline.LayerDeduplicator;
import dev.layerfold.dedup.pipeline.RebuildMemory;
import dev.layerfold.dedup.pipeline.YieldToClients;
import dev.layerfold.registry.api.RegistryApiProperties;
import dev.layerfold.restore.LayerRestorer;
import dev.layerfold.restore.RestoreOnce;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.dedup.DedupIndex;
import dev.layerfold.storage.dedup.DedupQueue;
import dev.layerfold.storage.dedup.LayerTask;
import dev.layerfold.storage.dedup.DedupStorage;
import dev.layerfold.storage.dedup.LayerPulls;
import dev.layerfold.storage.gc.GcIndex;
import dev.layerfold.storage.lease.Leases;
import dev.layerfold.storage.metadata.MetadataStore;
import io.micrometer.core.instrument.MeterRegistry;
import dev.layerfold.storage.usage.RepositoryUsage;
import dev.layerfold.registry.api.PullListener;
import dev.layerfold.registry.api.PushListener;
import dev.layerfold.registry.api.Puller;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.dedup.DedupTotals;
import java.io.IOException;
import java.util.List;
import java.io.UncheckedIOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The dedup pipeline and the restore service, over whichever backends are configured: the queue and
 * index live in the metadata store ({@link DedupStorage}), packs and layer records in the blob store.
 * The restore side is always wired, so layers deduplicated earlier are served whatever the mode.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(DedupProperties.class)
public class DedupConfiguration {

    private static final Logger LOG = LoggerFactory.getLogger(DedupConfiguration.class);

    @Bean
    DedupIndex dedupIndex(MetadataStore metadata) {
        return storage(metadata).dedupIndex();
    }

    /** Present only when dedup is on. */
    @Bean
    @ConditionalOnExpression("'${layerfold.dedup.mode:all}'.toLowerCase() != 'off'")
    DedupQueue dedupQueue(MetadataStore metadata) {
        return storage(metadata).dedupQueue();
    }

    /** Every layer stored by a push or a pull-through is queued for deduplication before the push succeeds. */
    @Bean
    @ConditionalOnExpression("'${layerfold.dedup.mode:all}'.toLowerCase() != 'off'")
    PushListener dedupOnPush(DedupQueue queue) {
        return new PushListener() {
            @Override
            public void layersStored(List<LayerTask> layers) throws IOException {
                for (LayerTask layer : layers) {
                    queue.enqueue(layer);
                }
            }
        };
    }

    static DedupStorage storage(MetadataStore metadata) {
        if (metadata instanceof DedupStorage storage) {
            return storage;
        }
        throw new IllegalStateException("metadata backend " + metadata.getClass().getSimpleName() + " keeps no dedup queue and index");
    }

    @Bean
    FilterRegistrationBean<InFlightRequests> inFlightRequests() {
        return new FilterRegistrationBean<>(new InFlightRequests());
    }

    /** Background work gives way to client requests: see {@link YieldToClients}. */
    @Bean
    YieldToClients dedupYield(FilterRegistrationBean<InFlightRequests> requests, DedupProperties dedup, MeterRegistry registry) {
        InFlightRequests inFlight = requests.getFilter();
        int yieldAt = dedup.yieldThreshold();
        long quietNanos = dedup.yieldQuiet().toNanos();
        return new YieldToClients(() -> inFlight.busy(yieldAt, quietNanos), dedup.yieldMaxPause()).register(registry, "dedup");
    }

    @Bean
    LayerPulls layerPulls(MetadataStore metadata) {
        return storage(metadata).layerPulls();
    }

    @Bean
    IntactCopyPolicy intactCopyPolicy(LayerPulls pulls, DedupProperties dedup, ObjectProvider<IntactCopyBudget> budget) {
        if (dedup.mode() == DedupProperties.Mode.BUDGETED) {
            // Rebuilt ahead by rank into the budget's room, not from hot-pulls a day: see AHEAD_LEAST_PULLS.
            return IntactCopyPolicy.budgeted(budget.getObject(), IntactCopyPolicy.AHEAD_LEAST_PULLS);
        }
        return new IntactCopyPolicy(pulls, dedup.mode() == DedupProperties.Mode.SELECTIVE, dedup.hotPulls(), dedup.keepRestored());
    }

    /** Mode {@code budgeted}: which layers keep an intact copy, learnt from every pull; see {@link IntactCopyBudget}. */
    @Bean(destroyMethod = "shutdownNow")
    @ConditionalOnExpression("'${layerfold.dedup.mode:all}'.toLowerCase() == 'budgeted'")
    ExecutorService intactCopyMaintenance() {
        // Bounded: pulls are counted by one thread; when it falls behind, counts are dropped, not queued without end.
        return new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(10_000),
                Thread.ofPlatform().daemon().name("intact-copy-budget").factory(), new ThreadPoolExecutor.DiscardPolicy());
    }

    @Bean
    @ConditionalOnExpression("'${layerfold.dedup.mode:all}'.toLowerCase() == 'budgeted'")
    IntactCopyBudget intactCopyBudget(BlobStore blobs, DedupIndex index, DedupProperties dedup,
                                      @Qualifier("intactCopyMaintenance") ExecutorService maintenance, MeterRegistry registry) {
        long fixed = dedup.intactBudget().toBytes();
        double share = dedup.intactShare();
        LongSupplier budget = () -> {
            if (fixed > 0) {
                return fixed;
            }
            try {
                DedupTotals totals = index.totals();
                return (long) (share * Math.max(0, totals.logicalBytes() - totals.storedBytes()));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the dedup totals for the intact-copy budget", e);
            }
        };
        return new IntactCopyBudget(blobs, index, budget, maintenance, registry);
    }

    /** Every blob pull counts towards its layer's popularity, off the request's thread. */
    @Bean
    @ConditionalOnExpression("'${layerfold.dedup.mode:all}'.toLowerCase() == 'budgeted'")
    PullListener intactCopyPulls(IntactCopyBudget budget, @Qualifier("intactCopyMaintenance") ExecutorService maintenance) {
        return new PullListener() {
            @Override
            public void manifestPulled(Puller puller, RepositoryName repository, Digest manifest) {
            }

            @Override
            public void blobPulled(Puller puller, RepositoryName repository, Digest blob) {
                maintenance.execute(() -> {
                    try {
                        budget.pulled(blob);
                    } catch (IOException | RuntimeException e) {
                        LOG.debug("pull of {} not counted: {}", blob, e.toString());
                    }
                });
            }
        };
    }

    /** The heap that restores and proofs may hold at once; see {@link RebuildMemory}. With the other budgets, it must fit the heap. */
    @Bean
    RebuildMemory rebuildMemory(DedupProperties dedup, RegistryApiProperties api, ObjectProvider<PredictorProperties> predictors,
                                MeterRegistry registry) {
        // With the predictor off, its configuration (and its properties) do not exist.
        PredictorProperties predictor = predictors.getIfAvailable();
        HeapShares.check(Runtime.getRuntime().maxMemory(), api.requestMemory().toBytes(), dedup.restoreMemoryBytes(),
                predictor == null || predictor.mode() == PredictorProperties.Mode.OFF ? 0 : predictor.memoryBytes());
        return new RebuildMemory(dedup.restoreMemoryBytes(), dedup.restoreQueueWait(), registry);
    }

    @Bean
    LayerDeduplicator layerDeduplicator(BlobStore blobs, DedupIndex index, GcIndex gc, DedupProperties dedup, StorageProperties storage,
                                        IntactCopyPolicy copies, RebuildMemory memory) throws IOException {
        Path scratch = scratch(dedup, storage).resolve("dedup");
        emptyScratch(scratch);
        DedupSettings settings = new DedupSettings(scratch, dedup.zstdLevel(), dedup.packSize().toBytes(), dedup.claimTime(), DedupLimits.DEFAULT);
        return new LayerDeduplicator(blobs, index, gc, new LayerSplitter(StandardEncoders.identifier()),
                new LayerRebuilder(StandardEncoders.factory()), settings, copies, memory);
    }

    private static Path scratch(DedupProperties dedup, StorageProperties storage) {
        return dedup.scratch() != null ? dedup.scratch() : storage.path().resolve("scratch");
    }

    /** What a worker or restore killed mid-layer left behind: nothing refers to it any more. */
    private static void emptyScratch(Path scratch) throws IOException {
        Files.createDirectories(scratch);
        try (var leftovers = Files.list(scratch)) {
            for (Path file : leftovers.toList()) {
                Files.deleteIfExists(file);
            }
        }
    }

    @Bean
    DedupMetrics dedupMetrics(MeterRegistry registry, DedupIndex index, MetadataStore metadata) {
        return new DedupMetrics(registry, index, storage(metadata).dedupQueue());
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnExpression("'${layerfold.dedup.mode:all}'.toLowerCase() != 'off' and ${layerfold.dedup.workers:1} > 0")
    DedupWorker dedupWorker(DedupQueue queue, DedupIndex index, LayerDeduplicator deduplicator, DedupMetrics metrics,
                            YieldToClients yielding, LayerPulls pulls, DedupProperties dedup,
                            ObjectProvider<RepositoryUsage> usage) {
        return new DedupWorker(queue, index, deduplicator, metrics, yielding,
                new ColdFirst(pulls, dedup.hotPulls(), dedup.hotDeferral()), dedup.lease(),
                Optional.ofNullable(usage.getIfAvailable()));
    }

    /**
     * Workers start once the process serves requests, not while its context is being built: a process
     * still starting (or about to fail) takes no layer from the shared queue, where its lease would hold
     * the layer up, and leaves the CPU to its start-up.
     */
    @Bean
    ApplicationListener<ApplicationReadyEvent> dedupWorkersStartWhenReady(ObjectProvider<DedupWorker> worker,
                                                                         DedupProperties dedup) {
        return ready -> worker.ifAvailable(created -> created.start(dedup.workers()));
    }

    @Bean(destroyMethod = "shutdownNow")
    ExecutorService restoreEncoders(DedupProperties dedup) {
        return Executors.newFixedThreadPool(dedup.restoreThreadCount(),
                Thread.ofPlatform().daemon().name("restore-encoder-", 0).factory());
    }

    @Bean(destroyMethod = "shutdownNow")
    ExecutorService restoreFetchers() {
        return Executors.newFixedThreadPool(16, Thread.ofPlatform().daemon().name("restore-fetch-", 0).factory());
    }

    @Bean
    LayerRestorer layerRestorer(BlobStore blobs, DedupIndex index, MeterRegistry registry, DedupProperties dedup,
                                StorageProperties storage, @Qualifier("restoreEncoders") ExecutorService encoders,
                                @Qualifier("restoreFetchers") ExecutorService fetchers, RebuildMemory memory) throws IOException {
        Path spool = scratch(dedup, storage).resolve("restore");
        emptyScratch(spool);
        // One pool runs whole restores and the segments of layers with restart points: a restore encodes a
        // segment itself rather than wait for a thread, so the two uses cannot block each other.
        LayerRebuilder rebuilder = LayerRebuilder.onThreads(StandardEncoders.factory(), encoders, dedup.restoreThreadCount());
        return new LayerRestorer(blobs, index, rebuilder, encoders, fetchers, spool, memory, registry);
    }

    @Bean(destroyMethod = "shutdownNow")
    ExecutorService restoredCopyWriters() {
        return Executors.newFixedThreadPool(4, Thread.ofPlatform().daemon().name("restored-copy-", 0).factory());
    }

    @Bean
    RestoreOnce restoreOnce(BlobStore blobs, LayerRestorer restorer, ObjectProvider<Leases> leases, DedupProperties dedup,
                            IntactCopyPolicy copies,
                            @Qualifier("restoredCopyWriters") ExecutorService writers, MeterRegistry registry) {
        Optional<IntactCopyBudget> budget = copies.budget();
        return new RestoreOnce(blobs, restorer, leases.getIfAvailable(), writers, dedup.restoreWait(),
                dedup.keepRestored().isPositive() || budget.isPresent(), registry,
                (layer, size) -> budget.ifPresent(b -> b.copyWritten(layer, size)));
    }

    /** In every process that runs workers: intact copies follow pulls whatever the mode, as restores make them. */
    @Bean(destroyMethod = "close")
    @ConditionalOnExpression("${layerfold.dedup.workers:1} > 0")
    IntactCopySweeper intactCopySweeper(BlobStore blobs, DedupIndex index, LayerPulls pulls, IntactCopyPolicy copies,
                                        RestoreOnce restores, ObjectProvider<Leases> leases, MeterRegistry registry,
                                        DedupProperties dedup, YieldToClients yielding) {
        IntactCopySweeper sweeper = new IntactCopySweeper(blobs, index, pulls, copies, restores, leases.getIfAvailable(), registry,
                yielding);
        sweeper.start(dedup.sweepInterval());
        return sweeper;
    }

}
