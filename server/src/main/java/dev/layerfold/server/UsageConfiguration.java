package dev.layerfold.server;

import dev.layerfold.storage.blob.BlobContent;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.dedup.DedupIndex;
import dev.layerfold.storage.gc.ManifestTargets;
import dev.layerfold.storage.lease.Leases;
import dev.layerfold.storage.metadata.MetadataStore;
import dev.layerfold.storage.usage.RepositoryUsage;
import dev.layerfold.storage.usage.UsageRebuild;
import dev.layerfold.storage.usage.UsageStorage;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The per-repository accounting: kept by the metadata store ({@link UsageStorage}), rebuilt and exported here. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(UsageProperties.class)
public class UsageConfiguration {

    @Bean
    RepositoryUsage repositoryUsage(MetadataStore metadata) {
        if (metadata instanceof UsageStorage storage) {
            return storage.repositoryUsage();
        }
        throw new IllegalStateException("metadata backend " + metadata.getClass().getSimpleName() + " keeps no accounting");
    }

    @Bean(destroyMethod = "close")
    UsageUpkeep usageUpkeep(RepositoryUsage usage, BlobStore blobs, BlobContent content, MetadataStore metadata,
                            ManifestTargets targets, ObjectProvider<DedupIndex> dedup, ObjectProvider<Leases> leases,
                            UsageProperties properties, MeterRegistry registry) {
        UsageRebuild rebuild = new UsageRebuild(blobs, content, metadata, targets, Optional.ofNullable(dedup.getIfAvailable()), usage);
        return new UsageUpkeep(usage, rebuild, Optional.ofNullable(leases.getIfAvailable()), properties, registry);
    }

    /** Starts once the process serves: a rebuild walks every manifest, which a process still starting should not. */
    @Bean
    ApplicationListener<ApplicationReadyEvent> usageUpkeepStartsWhenReady(UsageUpkeep upkeep) {
        return event -> upkeep.start();
    }
}
