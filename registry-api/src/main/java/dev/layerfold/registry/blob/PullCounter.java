package dev.layerfold.registry.blob;

import dev.layerfold.registry.api.PullListener;
import dev.layerfold.registry.api.Puller;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.dedup.LayerPulls;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * Counts blob pulls in memory and adds them to {@link LayerPulls} every few seconds, so a pull costs
 * the store nothing on the request path and one batched write per interval in all. Manifests are not
 * counted: only blobs move between intact and deduplicated. Counts of a process killed before
 * its next flush are lost: they only steer which layers stay intact, never what a client gets.
 * Without a {@link LayerPulls} in the context (a test registry), nothing is counted.
 */
@Component
public class PullCounter implements PullListener, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PullCounter.class);
    private static final long FLUSH_SECONDS = 5;

    private final LayerPulls store;
    private final ConcurrentMap<Digest, LongAdder> counted = new ConcurrentHashMap<>();
    private final ScheduledExecutorService flusher;

    PullCounter(ObjectProvider<LayerPulls> store) {
        this.store = store.getIfAvailable();
        this.flusher = this.store == null ? null : Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("pull-counter").factory());
        if (flusher != null) {
            flusher.scheduleWithFixedDelay(this::flushQuietly, FLUSH_SECONDS, FLUSH_SECONDS, TimeUnit.SECONDS);
        }
    }

    @Override
    public void manifestPulled(Puller puller, RepositoryName repository, Digest manifest) {
    }

    @Override
    public void blobPulled(Puller puller, RepositoryName repository, Digest blob) {
        if (store != null) {
            counted.computeIfAbsent(blob, any -> new LongAdder()).increment();
        }
    }

    /** Adds what was counted since the last flush to the store. */
    public void flush() throws IOException {
        Map<Digest, Long> batch = new HashMap<>();
        for (Digest blob : counted.keySet()) {
            LongAdder adder = counted.remove(blob);
            if (adder != null) {
                batch.put(blob, adder.sum());
            }
        }
        if (batch.isEmpty()) {
            return;
        }
        try {
            store.record(batch);
        } catch (IOException | RuntimeException e) {
            batch.forEach((blob, pulls) -> counted.computeIfAbsent(blob, any -> new LongAdder()).add(pulls));
            throw e;
        }
    }

    private void flushQuietly() {
        try {
            flush();
        } catch (IOException | RuntimeException e) {
            LOG.warn("pull counts not recorded yet, kept for the next try: {}", e.toString());
        }
    }

    @Override
    public void close() {
        if (flusher != null) {
            flusher.shutdownNow();
            flushQuietly();
        }
    }
}
