package dev.layerfold.registry.usage;

import dev.layerfold.registry.api.PullListener;
import dev.layerfold.registry.api.Puller;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.usage.RepositoryUsage;
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
 * Counts manifest pulls per repository in memory and adds them to {@link RepositoryUsage} every few
 * seconds, so a pull costs the store nothing on the request path. Counts of a process killed before
 * its next flush are lost. Without a {@link RepositoryUsage} in the context, nothing is counted.
 */
@Component
public class RepositoryPullCounter implements PullListener, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RepositoryPullCounter.class);
    private static final long FLUSH_SECONDS = 5;

    private final RepositoryUsage store;
    private final ConcurrentMap<RepositoryName, LongAdder> counted = new ConcurrentHashMap<>();
    private final ScheduledExecutorService flusher;

    RepositoryPullCounter(ObjectProvider<RepositoryUsage> store) {
        this.store = store.getIfAvailable();
        this.flusher = this.store == null ? null : Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("repository-pull-counter").factory());
        if (flusher != null) {
            flusher.scheduleWithFixedDelay(this::flushQuietly, FLUSH_SECONDS, FLUSH_SECONDS, TimeUnit.SECONDS);
        }
    }

    @Override
    public void manifestPulled(Puller puller, RepositoryName repository, Digest manifest) {
        if (store != null) {
            counted.computeIfAbsent(repository, any -> new LongAdder()).increment();
        }
    }

    @Override
    public void blobPulled(Puller puller, RepositoryName repository, Digest blob) {
    }

    /** Adds what was counted since the last flush to the store. */
    public void flush() throws IOException {
        if (store == null) {
            return;
        }
        Map<RepositoryName, Long> batch = new HashMap<>();
        for (RepositoryName repository : counted.keySet()) {
            LongAdder adder = counted.remove(repository);
            if (adder != null) {
                batch.put(repository, adder.sum());
            }
        }
        try {
            store.pulled(batch);
        } catch (IOException | RuntimeException e) {
            batch.forEach((repository, pulls) -> counted.computeIfAbsent(repository, any -> new LongAdder()).add(pulls));
            throw e;
        }
    }

    private void flushQuietly() {
        try {
            flush();
        } catch (IOException | RuntimeException e) {
            LOG.warn("repository pull counts not recorded yet, kept for the next try: {}", e.toString());
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
