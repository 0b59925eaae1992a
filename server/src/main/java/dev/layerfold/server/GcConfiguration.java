package dev.layerfold.server;

import dev.layerfold.dedup.codec.recipe.FileRef;
import dev.layerfold.dedup.store.LivePackCopier;
import dev.layerfold.dedup.store.StoredFiles;
import dev.layerfold.gc.GarbageCollector;
import dev.layerfold.gc.GcSettings;
import dev.layerfold.gc.RegistryCheck;
import dev.layerfold.registry.manifest.Retention;
import dev.layerfold.registry.proxy.Upstreams;
import dev.layerfold.storage.blob.BlobContent;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.dedup.DedupIndex;
import dev.layerfold.storage.gc.GcIndex;
import dev.layerfold.storage.gc.GcStorage;
import dev.layerfold.storage.gc.ManifestTargets;
import dev.layerfold.storage.lease.Leases;
import dev.layerfold.storage.metadata.MetadataStore;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Clock;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The garbage collector over whichever backends are configured: its index lives in the metadata
 * store ({@link GcStorage}); it releases deduplicated layers through the dedup index and reads their
 * records from the blob store.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(GcProperties.class)
public class GcConfiguration {

    @Bean
    GcIndex gcIndex(MetadataStore metadata) {
        if (metadata instanceof GcStorage storage) {
            return storage.gcIndex();
        }
        throw new IllegalStateException("metadata backend " + metadata.getClass().getSimpleName() + " keeps no GC index");
    }

    @Bean
    GarbageCollector garbageCollector(BlobStore blobs, MetadataStore metadata, GcIndex index, DedupIndex dedup,
                                      ManifestTargets targets, ObjectProvider<Leases> leases, GcProperties gc) {
        GcSettings settings = new GcSettings(gc.grace(), gc.deletesPerSecond(), GcSettings.DEFAULTS.pageSize(),
                gc.unreferencedFileAge(), gc.packLiveShare(), gc.packGrace(), gc.rewriteBytesPerSecond().toBytes(),
                gc.sweepObjectsPerRun());
        return new GarbageCollector(blobs, metadata, index,
                Optional.of(new GarbageCollector.Dedup(dedup, new StoredFiles(blobs), new LivePackCopier(blobs, dedup))), targets,
                Optional.ofNullable(leases.getIfAvailable()), settings, Clock.systemUTC(), GarbageCollector.Observer.NONE);
    }

    @Bean
    RegistryCheck registryCheck(BlobStore blobs, BlobContent content, MetadataStore metadata, GcIndex index,
                                DedupIndex dedup, ManifestTargets targets, ObjectProvider<Upstreams> upstreams) {
        StoredFiles files = new StoredFiles(blobs);
        RegistryCheck.FileVerifier verifier = (file, location) -> {
            // Reading to the end proves the digest and size: StoredFiles fails a stream that ends otherwise.
            try (InputStream in = files.open(new FileRef(file.hex(), location.size()), location)) {
                in.transferTo(OutputStream.nullOutputStream());
                return true;
            } catch (IOException e) {
                return false;
            }
        };
        Upstreams proxied = upstreams.getIfAvailable();
        // A pulled-through repository holds only what clients asked for; the rest is at its upstream.
        return new RegistryCheck(blobs, content, metadata, index, targets,
                Optional.of(new RegistryCheck.Dedup(dedup, files, verifier)),
                repository -> proxied != null && proxied.route(repository).isPresent());
    }

    @Bean(destroyMethod = "close")
    GcRuns gcRuns(GarbageCollector collector, RegistryCheck check, Retention retention, GcProperties gc,
                  MeterRegistry registry) {
        return new GcRuns(collector, check, retention, gc.policies(), registry);
    }

    /** Scheduled runs start once the process serves, like the dedup workers. */
    @Bean
    ApplicationListener<ApplicationReadyEvent> gcStartsWhenReady(GcRuns runs, GcProperties gc) {
        return ready -> {
            if (!gc.interval().isZero()) {
                runs.start(gc.interval());
            }
        };
    }
}
