package dev.layerfold.storage.redis;

import static dev.layerfold.storage.redis.RedisCalls.call;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

/**
 * Which Redis processes hold the index: the {@code run_id} of the server, or of every master of a
 * Cluster, sorted. Redis draws a new run id each time it starts, so the fingerprint changes when a
 * server restarts (it may have reloaded persistence older than its last writes) and when a replica
 * takes over from a master (it may have lagged behind it). {@link IndexRebuild} keeps it in its marker.
 *
 * <p>Lookups must stay one round trip, so the fingerprint is cached: read at start-up, every few
 * seconds and when a connection comes back up, and unknown from the moment a connection drops until
 * then, so that a lookup needing it meanwhile reads it rather than trust the servers before the drop.
 */
final class ServerFingerprint {

    /** The cached fingerprint (null: unknown) and how many times it was forgotten, to spot a drop during a read. */
    private record Known(long forgotten, String fingerprint) {
    }

    private final RedisConnection connection;
    private final AtomicReference<Known> known = new AtomicReference<>(new Known(0, null));

    ServerFingerprint(RedisConnection connection) {
        this.connection = connection;
    }

    /** The cached fingerprint, read from Redis if unknown. */
    String current() throws IOException {
        String cached = known.get().fingerprint();
        return cached != null ? cached : refresh();
    }

    /** Reads the fingerprint from Redis and caches it, unless a connection dropped during the read. */
    String refresh() throws IOException {
        Known before = known.get();
        List<String> infos = call("read the run ids of the Redis servers", connection::serverInfos);
        String fresh = infos.stream().map(ServerFingerprint::runId).sorted().collect(Collectors.joining(","));
        known.compareAndSet(before, new Known(before.forgotten(), fresh));
        return fresh;
    }

    /** Forgets the cached fingerprint: the servers behind the connection may be others when it is back. */
    void forget() {
        known.updateAndGet(cached -> new Known(cached.forgotten() + 1, null));
    }

    private static String runId(String serverInfo) {
        Optional<String> runId = serverInfo.lines().filter(line -> line.startsWith("run_id:"))
                .map(line -> line.substring("run_id:".length()).strip()).findFirst();
        return runId.orElseThrow(() -> new IllegalStateException("INFO server has no run_id: " + serverInfo));
    }
}
