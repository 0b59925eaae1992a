package dev.layerfold.registry.gc;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.gc.GcIndex;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import org.springframework.stereotype.Component;

/**
 * Where the API meets the garbage collector before it publishes bytes: a touch, atomic against the
 * collector's condemn, so bytes are published either before a judgement (which then keeps them) or
 * after the delete (docs/design.md, "Garbage collection").
 */
@Component
public class CollectorFence {

    /** A collector buries a digest within a few requests' time; a mark it left by dying expires by itself. */
    private static final Duration RETRY = Duration.ofMillis(50);

    private final GcIndex index;

    public CollectorFence(GcIndex index) {
        this.index = index;
    }

    /**
     * Touches the digest before its bytes are published or linked into the repository, waiting while
     * the collector deletes it (at most {@link GcIndex#CONDEMNATION_LIFETIME}, after which a mark expires).
     */
    public void touchBeforePublishing(RepositoryName repository, Digest digest) throws IOException {
        while (!index.touch(repository, digest)) {
            try {
                Thread.sleep(RETRY);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while " + digest + " was being garbage-collected");
            }
        }
    }

    /** Touches the digest unless the collector is deleting it; false then (a mount then mounts nothing). */
    public boolean touchUnlessCondemned(RepositoryName repository, Digest digest) throws IOException {
        return index.touch(repository, digest);
    }
}
