package dev.layerfold.registry;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.gc.GcIndex;
import java.io.IOException;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Lets a test see the API meet the collector: the GC index the API uses counts down a latch each time
 * it refuses a touch (a request that found its digest condemned and now waits for the delete), and
 * can fail the next unreference as a process killed right before it would.
 */
public final class GcHooks {

    private final AtomicReference<CountDownLatch> refusedTouches = new AtomicReference<>(new CountDownLatch(0));
    private final AtomicBoolean killBeforeUnreference = new AtomicBoolean();

    /** The next unreference fails, changing nothing, as if its process was killed before it ran. */
    public void killBeforeNextUnreference() {
        killBeforeUnreference.set(true);
    }

    /** A latch the next {@code count} refused touches count down. */
    public CountDownLatch awaitRefusedTouches(int count) {
        CountDownLatch latch = new CountDownLatch(count);
        refusedTouches.set(latch);
        return latch;
    }

    GcIndex observe(GcIndex index) {
        return new GcIndex() {
            @Override
            public boolean touch(RepositoryName repository, Digest digest) throws IOException {
                boolean touched = index.touch(repository, digest);
                if (!touched) {
                    refusedTouches.get().countDown();
                }
                return touched;
            }

            @Override
            public boolean touch(Digest digest) throws IOException {
                return index.touch(digest);
            }

            @Override
            public Set<Digest> reference(RepositoryName repository, Digest manifest, Collection<Digest> targets) throws IOException {
                return index.reference(repository, manifest, targets);
            }

            @Override
            public void unreference(RepositoryName repository, Digest manifest) throws IOException {
                if (killBeforeUnreference.getAndSet(false)) {
                    throw new IOException("the process was killed before it unreferenced " + manifest);
                }
                index.unreference(repository, manifest);
            }

            @Override
            public void releasing(RepositoryName repository, Digest manifest) throws IOException {
                index.releasing(repository, manifest);
            }

            @Override
            public List<Release> unfinishedReleases(Duration age, int limit) throws IOException {
                return index.unfinishedReleases(age, limit);
            }

            @Override
            public void finishRelease(Release release) throws IOException {
                index.finishRelease(release);
            }

            @Override
            public void dropRelease(Release release) throws IOException {
                index.dropRelease(release);
            }

            @Override
            public Optional<Long> referencedSince(RepositoryName repository, Digest manifest) throws IOException {
                return index.referencedSince(repository, manifest);
            }

            @Override
            public long references(Digest target) throws IOException {
                return index.references(target);
            }

            @Override
            public boolean nominate(Digest digest, long sinceMillis) throws IOException {
                return index.nominate(digest, sinceMillis);
            }

            @Override
            public Optional<Digest> sweptUpTo() throws IOException {
                return index.sweptUpTo();
            }

            @Override
            public void sweptUpTo(Optional<Digest> digest) throws IOException {
                index.sweptUpTo(digest);
            }

            @Override
            public List<Digest> candidates(Duration grace, int limit) throws IOException {
                return index.candidates(grace, limit);
            }

            @Override
            public Optional<Condemnation> condemn(Digest digest, Duration grace) throws IOException {
                return index.condemn(digest, grace);
            }

            @Override
            public boolean stillCondemned(Condemnation condemnation) throws IOException {
                return index.stillCondemned(condemnation);
            }

            @Override
            public void bury(Condemnation condemnation) throws IOException {
                index.bury(condemnation);
            }

            @Override
            public Optional<Long> completeSince() throws IOException {
                return index.completeSince();
            }

            @Override
            public String generation() throws IOException {
                return index.generation();
            }

            @Override
            public boolean markComplete(String generation, boolean sinceEver) throws IOException {
                return index.markComplete(generation, sinceEver);
            }
        };
    }
}
