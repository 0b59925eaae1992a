package dev.layerfold.storage.usage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The {@link RepositoryUsage} contract. An implementation's test supplies a fresh, complete store per
 * call of {@link #newUsage()} and another handle on it, as another process would open it, from
 * {@link #sameUsage()}.
 */
public abstract class RepositoryUsageContract {

    private static final RepositoryName APP = RepositoryName.of("team/app");
    private static final RepositoryName OTHER = RepositoryName.of("team/other");
    private static final RepositoryName THIRD = RepositoryName.of("zeta");
    private static final Digest BASE = digest("base layer");
    private static final Digest TOP = digest("top layer");
    private static final Digest CONFIG = digest("config");

    protected abstract RepositoryUsage newUsage() throws Exception;

    protected abstract RepositoryUsage sameUsage() throws Exception;

    protected static Digest digest(String name) {
        return Digest.sha256(name.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aPushCountsItsBlobsOnceEachAsLogicalStoredAndExclusive() throws Exception {
        RepositoryUsage usage = newUsage();
        usage.referenced(APP, digest("m1"), Map.of(BASE, 1000L, TOP, 100L, CONFIG, 10L));
        usage.referenced(APP, digest("m1"), Map.of(BASE, 1000L, TOP, 100L, CONFIG, 10L));
        sameUsage().referenced(APP, digest("m2"), Map.of(BASE, 1000L, CONFIG, 10L));

        assertThat(sameUsage().usage(APP)).contains(new Usage(APP, 1110, 1110, 1110, 1110, 2, 0));
        assertThat(usage.usage(OTHER)).isEmpty();
        assertThat(usage.totals()).isEqualTo(new UsageTotals(1110, 1110, 0, 0, 1));
    }

    @Test
    void aBlobTwoRepositoriesHoldIsSharedByBothAndExclusiveAgainWhenOneLetsGo() throws Exception {
        RepositoryUsage usage = newUsage();
        usage.referenced(APP, digest("m1"), Map.of(BASE, 1000L, TOP, 100L));
        sameUsage().referenced(OTHER, digest("m2"), Map.of(BASE, 1000L, CONFIG, 10L));

        Usage app = usage.usage(APP).orElseThrow();
        assertThat(app.exclusiveBytes()).isEqualTo(100);
        assertThat(app.sharedBytes()).isEqualTo(1000);
        assertThat(app.freedBytes()).isEqualTo(100);
        assertThat(usage.usage(OTHER).orElseThrow().freedBytes()).isEqualTo(10);
        assertThat(usage.totals()).isEqualTo(new UsageTotals(1110, 1110, 1000, 1000, 2));

        sameUsage().unreferenced(OTHER, digest("m2"));
        sameUsage().unreferenced(OTHER, digest("m2"));

        assertThat(usage.usage(APP)).contains(new Usage(APP, 1100, 1100, 1100, 1100, 1, 0));
        assertThat(usage.usage(OTHER)).contains(new Usage(OTHER, 0, 0, 0, 0, 1, 0));
        assertThat(usage.totals()).isEqualTo(new UsageTotals(1100, 1100, 0, 0, 2));
    }

    @Test
    void aBlobStillNamedByAnotherManifestOfTheRepositoryStays() throws Exception {
        RepositoryUsage usage = newUsage();
        usage.referenced(APP, digest("m1"), Map.of(BASE, 1000L, TOP, 100L));
        usage.referenced(APP, digest("m2"), Map.of(BASE, 1000L));

        usage.unreferenced(APP, digest("m1"));

        assertThat(usage.usage(APP)).contains(new Usage(APP, 1000, 1000, 1000, 1000, 2, 0));
    }

    @Test
    void deduplicatingABlobChangesTheStoredBytesOfEveryRepositoryHoldingIt() throws Exception {
        RepositoryUsage usage = newUsage();
        usage.referenced(APP, digest("m1"), Map.of(BASE, 1000L, TOP, 100L));
        usage.referenced(OTHER, digest("m2"), Map.of(BASE, 1000L));

        sameUsage().stored(BASE, 300);
        sameUsage().stored(TOP, 40);

        assertThat(usage.usage(APP)).contains(new Usage(APP, 1100, 100, 340, 40, 1, 0));
        assertThat(usage.usage(OTHER)).contains(new Usage(OTHER, 1000, 0, 300, 0, 1, 0));
        assertThat(usage.totals()).isEqualTo(new UsageTotals(1100, 340, 1000, 300, 2));
        assertThat(usage.usage(APP).orElseThrow().savedBytes()).isEqualTo(760);
    }

    @Test
    void aBlobDeduplicatedBeforeAnyRepositoryHeldItIsCountedAsStored() throws Exception {
        RepositoryUsage usage = newUsage();
        usage.stored(BASE, 300);
        usage.referenced(APP, digest("m1"), Map.of(BASE, 1000L));

        assertThat(usage.usage(APP)).contains(new Usage(APP, 1000, 1000, 300, 300, 1, 0));
    }

    @Test
    void theFreedBytesOfEveryRepositoryPlusTheSharedBytesOnceAreTheStoredTotal() throws Exception {
        RepositoryUsage usage = newUsage();
        usage.referenced(APP, digest("m1"), Map.of(BASE, 1000L, TOP, 100L));
        usage.referenced(OTHER, digest("m2"), Map.of(BASE, 1000L, CONFIG, 10L));
        usage.referenced(THIRD, digest("m3"), Map.of(BASE, 1000L, digest("own"), 7L));
        usage.stored(BASE, 250);
        usage.unreferenced(OTHER, digest("m2"));

        UsageTotals totals = usage.totals();
        long freed = 0;
        for (Usage each : usage.page(UsageOrder.NAME, 0, 10)) {
            freed += each.freedBytes();
        }
        assertThat(freed + totals.sharedStoredBytes()).isEqualTo(totals.storedBytes()).isEqualTo(250 + 100 + 7);
    }

    @Test
    void pagesAreSortedByTheFigureAskedForLargestFirstOrByName() throws Exception {
        RepositoryUsage usage = newUsage();
        usage.referenced(APP, digest("m1"), Map.of(TOP, 100L));
        usage.referenced(OTHER, digest("m2"), Map.of(BASE, 1000L));
        usage.referenced(THIRD, digest("m3"), Map.of(CONFIG, 10L));
        usage.pulled(Map.of(THIRD, 5L, APP, 2L));
        sameUsage().pulled(Map.of(THIRD, 1L));

        assertThat(names(usage.page(UsageOrder.STORED, 0, 10))).containsExactly(OTHER, APP, THIRD);
        assertThat(names(usage.page(UsageOrder.STORED, 1, 1))).containsExactly(APP);
        assertThat(names(usage.page(UsageOrder.PULLS, 0, 2))).containsExactly(THIRD, APP);
        assertThat(names(usage.page(UsageOrder.NAME, 0, 10))).containsExactly(APP, OTHER, THIRD);
        assertThat(usage.page(UsageOrder.LOGICAL, 3, 10)).isEmpty();
        assertThat(usage.usage(THIRD).orElseThrow().pulls()).isEqualTo(6);
    }

    @Test
    void aManifestWithNoBlobsCountsAPush() throws Exception {
        RepositoryUsage usage = newUsage();
        usage.referenced(APP, digest("index"), Map.of());

        assertThat(usage.usage(APP)).contains(new Usage(APP, 0, 0, 0, 0, 1, 0));
    }

    @Test
    void clearingForgetsEverythingAndTheStoreIsIncompleteUntilMarked() throws Exception {
        RepositoryUsage usage = newUsage();
        assertThat(usage.complete()).isTrue();
        usage.referenced(APP, digest("m1"), Map.of(TOP, 100L));
        usage.stored(TOP, 10);

        sameUsage().clear();

        assertThat(usage.complete()).isFalse();
        assertThat(usage.usage(APP)).isEmpty();
        assertThat(usage.totals()).isEqualTo(new UsageTotals(0, 0, 0, 0, 0));
        usage.referenced(APP, digest("m1"), Map.of(TOP, 100L));
        assertThat(usage.usage(APP).map(Usage::storedBytes)).isEqualTo(Optional.of(100L));
        usage.markComplete();
        assertThat(sameUsage().complete()).isTrue();
    }

    private static List<RepositoryName> names(List<Usage> page) {
        return page.stream().map(Usage::repository).toList();
    }
}
