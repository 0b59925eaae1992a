package dev.layerfold.restore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.dedup.codec.LayerRebuilder;
import dev.layerfold.dedup.codec.identify.StandardEncoders;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.embedded.SqliteMetadataStore;
import dev.layerfold.storage.filesystem.FilesystemBlobStore;
import dev.layerfold.storage.lease.Leases;
import dev.layerfold.storage.redis.RedisConnection;
import dev.layerfold.storage.redis.RedisLeases;
import dev.layerfold.storage.testserver.RedisServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Restores of one layer from several processes: each "process" here has its own stores on the same
 * data directory and database file, its own restorer and spool, and its own connection to a real Redis
 * for leases, as two registry processes on one backend would.
 */
@Timeout(60)
class RestoreOnceTest {

    @TempDir
    Path dir;

    private final String namespace = RedisServer.newNamespace();
    private final List<AutoCloseable> closing = new ArrayList<>();
    private final ExecutorService fetchers = Executors.newFixedThreadPool(4);
    private final ExecutorService clients = Executors.newCachedThreadPool();

    /** One registry process's restore side. */
    private final class Process {
        final FilesystemBlobStore blobs = new FilesystemBlobStore(dir.resolve("data"));
        final SqliteMetadataStore metadata = remember(new SqliteMetadataStore(dir.resolve("metadata.db")));
        final HeldExecutor rebuilds = new HeldExecutor();
        final HeldExecutor copiers = new HeldExecutor();
        final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
        final RestoreOnce restores;

        Process(String name, boolean sharedLeases, Duration longestWait) throws IOException {
            LayerRestorer restorer = new LayerRestorer(blobs, metadata.dedupIndex(), new LayerRebuilder(StandardEncoders.factory()),
                    rebuilds, fetchers, dir.resolve("spool-" + name), metrics);
            restores = new RestoreOnce(blobs, restorer, sharedLeases ? leases() : null, copiers, longestWait, true, metrics);
        }

        double counted(String meter) {
            return metrics.counter(meter).count();
        }
    }

    private Leases leases() {
        RedisConnection connection = remember(RedisConnection.open(RedisServer.shared().url(), false));
        return new RedisLeases(connection.commands(), namespace);
    }

    private <T extends AutoCloseable> T remember(T closeable) {
        closing.add(closeable);
        return closeable;
    }

    @AfterEach
    void close() throws Exception {
        fetchers.shutdownNow();
        clients.shutdownNow();
        for (AutoCloseable closeable : closing) {
            closeable.close();
        }
    }

    @Test
    void pullsOfALayerOnTwoProcessesAtOnceCostOneRebuildAndBothGetExactBytes() throws Exception {
        Process first = new Process("a", true, Duration.ofMinutes(1));
        Process second = new Process("b", true, Duration.ofMinutes(1));
        byte[] layer = DeduplicatedLayers.deduplicated(first.blobs, first.metadata.dedupIndex(), first.metadata.gcIndex(), dir.resolve("scratch"),
                DeduplicatedLayers.layer(new Random(1), 20));
        Digest digest = Digest.sha256(layer);

        InputStream pulledFirst = first.restores.open(digest, 0, -1).orElseThrow();
        CompletableFuture<byte[]> pulledSecond = CompletableFuture.supplyAsync(() -> readAll(second, digest, 1000, 5000), clients);
        awaitCount(second, "layerfold.restore.waits");
        first.rebuilds.runHeld();
        first.copiers.runHeld();

        assertThat(pulledFirst.readAllBytes()).isEqualTo(layer);
        assertThat(pulledSecond.get(30, TimeUnit.SECONDS)).isEqualTo(Arrays.copyOfRange(layer, 1000, 6000));
        assertThat(first.rebuilds.heldSoFar() + second.rebuilds.heldSoFar()).as("rebuilds in both processes").isEqualTo(1);
        assertThat(first.counted("layerfold.restore.copies.kept")).isEqualTo(1);
        assertThat(first.blobs.size(digest)).as("the intact copy the second process was served").contains((long) layer.length);
    }

    @Test
    void twoPullsInOneProcessJoinOneRebuildAndKeepOneCopy() throws Exception {
        Process alone = new Process("alone", false, Duration.ofMinutes(1));
        byte[] layer = DeduplicatedLayers.deduplicated(alone.blobs, alone.metadata.dedupIndex(), alone.metadata.gcIndex(), dir.resolve("scratch"),
                DeduplicatedLayers.layer(new Random(2), 10));
        Digest digest = Digest.sha256(layer);

        InputStream whole = alone.restores.open(digest, 0, -1).orElseThrow();
        InputStream tail = alone.restores.open(digest, layer.length - 100, -1).orElseThrow();
        alone.rebuilds.runHeld();
        alone.copiers.runHeld();

        assertThat(whole.readAllBytes()).isEqualTo(layer);
        assertThat(tail.readAllBytes()).isEqualTo(Arrays.copyOfRange(layer, layer.length - 100, layer.length));
        assertThat(alone.rebuilds.heldSoFar()).isEqualTo(1);
        assertThat(alone.copiers.heldSoFar()).as("copies written").isEqualTo(1);
        assertThat(alone.counted("layerfold.restore.waits")).isZero();
    }

    @Test
    void aPullWaitsForAStuckRebuildElsewhereOnlySoLongThenRebuildsTheLayerItself() throws Exception {
        Process stuck = new Process("stuck", true, Duration.ofMinutes(1));
        Process impatient = new Process("impatient", true, Duration.ofMillis(500));
        byte[] layer = DeduplicatedLayers.deduplicated(stuck.blobs, stuck.metadata.dedupIndex(), stuck.metadata.gcIndex(), dir.resolve("scratch"),
                DeduplicatedLayers.layer(new Random(3), 10));
        Digest digest = Digest.sha256(layer);
        stuck.restores.open(digest, 0, -1).orElseThrow(); // its rebuild never runs

        CompletableFuture<byte[]> pulled = CompletableFuture.supplyAsync(() -> readAll(impatient, digest, 0, -1), clients);
        awaitCount(impatient, "layerfold.restore.waits");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (impatient.rebuilds.heldSoFar() == 0 && !pulled.isDone() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        impatient.rebuilds.runHeld();

        assertThat(pulled.get(30, TimeUnit.SECONDS)).isEqualTo(layer);
    }

    private static byte[] readAll(Process process, Digest digest, long offset, long length) {
        try (InputStream in = process.restores.open(digest, offset, length).orElseThrow()) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
    }

    /** Waits until the process counted one of {@code meter}; a test thread that spins is not stopped by @Timeout. */
    private static void awaitCount(Process process, String meter) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (process.counted(meter) < 1) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the process never counted " + meter);
            }
            Thread.sleep(5);
        }
    }
}
