package dev.layerfold.server;

import java.nio.file.Path;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * {@code layerfold.predictor.*}: the predictor and its two tiers. Every property also comes from the
 * environment, e.g. {@code LAYERFOLD_PREDICTOR_MODE}.
 *
 * @param mode {@code predict}: learn from pulls and fetch predicted layers into the tiers ahead of
 *     their GET; {@code cache}: the tiers keep what was served, nothing is fetched ahead; {@code off}:
 *     no tiers, every GET goes to the blob store or a rebuild
 * @param memorySize the memory tier's bytes (default: an eighth of the heap)
 * @param diskSize the disk tier's bytes
 * @param diskPath the disk tier's directory (default: {@code <storage path>/tier})
 * @param hold how long a layer fetched ahead waits for its GET before it is dropped as unused
 * @param threshold the least probability of a GET worth fetching a layer ahead for
 * @param fetchers threads fetching layers ahead in this process
 * @param fetchQueue predicted layers waiting for a fetcher; more are dropped (counted)
 * @param learnQueue pulls waiting to be learned from; more are dropped (counted), the requests never wait
 * @param forgetAfter a user's pull of a layer not repeated for this long is forgotten, and so is an idle user
 * @param layersPerUser most layers remembered per user
 */
@ConfigurationProperties("layerfold.predictor")
public record PredictorProperties(
        @DefaultValue("predict") Mode mode,
        DataSize memorySize,
        @DefaultValue("4GB") DataSize diskSize,
        Path diskPath,
        @DefaultValue("2m") Duration hold,
        @DefaultValue("0.5") double threshold,
        @DefaultValue("2") int fetchers,
        @DefaultValue("64") int fetchQueue,
        @DefaultValue("10000") int learnQueue,
        @DefaultValue("30d") Duration forgetAfter,
        @DefaultValue("10000") int layersPerUser) {

    public enum Mode { PREDICT, CACHE, OFF }

    long memoryBytes() {
        return memorySize != null ? memorySize.toBytes() : Runtime.getRuntime().maxMemory() / 8;
    }

    Path diskDirectory(StorageProperties storage) {
        return diskPath != null ? diskPath : storage.path().resolve("tier");
    }
}
