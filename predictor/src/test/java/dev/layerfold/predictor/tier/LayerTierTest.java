package dev.layerfold.predictor.tier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.predictor.SettableClock;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LayerTierTest {

    private static final Duration HOLD = Duration.ofMinutes(2);

    @TempDir
    Path dir;

    private final SettableClock clock = new SettableClock(Instant.parse("2026-01-01T00:00:00Z"));

    private static byte[] layer(int size, int seed) {
        byte[] bytes = new byte[size];
        for (int i = 0; i < size; i++) {
            bytes[i] = (byte) (i * 31 + seed);
        }
        return bytes;
    }

    private static byte[] read(Optional<InputStream> stream) throws IOException {
        try (InputStream in = stream.orElseThrow()) {
            return in.readAllBytes();
        }
    }

    private static boolean stage(LayerTier tier, byte[] bytes) throws IOException {
        return tier.stage(Digest.sha256(bytes), bytes.length, () -> new ByteArrayInputStream(bytes));
    }

    @Test
    void aStagedLayerIsServedWholeAndByRange() throws Exception {
        for (LayerTier tier : new LayerTier[] {LayerTier.inMemory(1 << 20, HOLD, clock),
                LayerTier.onDisk(dir, 1 << 20, HOLD, clock)}) {
            byte[] bytes = layer(10_000, 1);
            Digest digest = Digest.sha256(bytes);

            assertThat(stage(tier, bytes)).isTrue();

            assertThat(read(tier.open(digest, 0, -1))).isEqualTo(bytes);
            assertThat(read(tier.open(digest, 100, 50))).isEqualTo(Arrays.copyOfRange(bytes, 100, 150));
            assertThat(read(tier.open(digest, 9_990, -1))).isEqualTo(Arrays.copyOfRange(bytes, 9_990, 10_000));
            assertThat(tier.open(Digest.sha256(new byte[1]), 0, -1)).isEmpty();
        }
    }

    @Test
    void bytesThatAreNotTheLayerAreNeverKept() throws Exception {
        LayerTier tier = LayerTier.onDisk(dir, 1 << 20, HOLD, clock);
        byte[] bytes = layer(1_000, 1);
        Digest digest = Digest.sha256(bytes);
        byte[] other = layer(1_000, 2);

        assertThatThrownBy(() -> tier.stage(digest, bytes.length, () -> new ByteArrayInputStream(other)))
                .isInstanceOf(IOException.class).hasMessageContaining(digest.toString());
        LayerTier.Fill fill = tier.fill(digest, bytes.length).orElseThrow();
        fill.output().write(other);

        assertThat(fill.complete()).isFalse();
        assertThat(tier.holds(digest)).isFalse();
        assertThat(tier.usedBytes()).isZero();
        assertThat(stage(tier, bytes)).as("the room reserved for the failed fetch was given back").isTrue();
    }

    @Test
    void aLayerServedFromElsewhereIsKeptOnceWholeAndVerified() throws Exception {
        LayerTier tier = LayerTier.inMemory(1 << 20, HOLD, clock);
        byte[] bytes = layer(5_000, 3);
        Digest digest = Digest.sha256(bytes);

        LayerTier.Fill fill = tier.fill(digest, bytes.length).orElseThrow();
        fill.output().write(bytes);

        assertThat(fill.complete()).isTrue();
        assertThat(read(tier.open(digest, 0, -1))).isEqualTo(bytes);
        assertThat(tier.fill(digest, bytes.length)).as("already held").isEmpty();
    }

    @Test
    void stagingTakesAtMostHalfTheCapacityAndLayersAboveTheTiersLimitAreRefused() throws Exception {
        LayerTier memory = LayerTier.inMemory(80_000, HOLD, clock);

        assertThat(stage(memory, layer(10_001, 1))).as("over an eighth of the capacity").isFalse();
        for (int i = 0; i < 4; i++) {
            assertThat(stage(memory, layer(10_000, i))).isTrue();
        }
        assertThat(stage(memory, layer(10_000, 9))).isFalse();

        memory.open(Digest.sha256(layer(10_000, 0)), 0, -1).orElseThrow().close();
        assertThat(stage(memory, layer(10_000, 9))).as("a used layer frees staging room").isTrue();
    }

    @Test
    void aStagedLayerWithoutItsGetIsDroppedAfterTheHoldAndCountedAsUnused() throws Exception {
        LayerTier tier = LayerTier.onDisk(dir, 1 << 20, HOLD, clock);
        byte[] used = layer(3_000, 1);
        byte[] unused = layer(4_000, 2);
        stage(tier, used);
        stage(tier, unused);
        tier.open(Digest.sha256(used), 0, -1).orElseThrow().close();

        clock.advance(HOLD.plusSeconds(1));

        assertThat(tier.dropStale()).isEqualTo(4_000);
        assertThat(tier.unusedBytes()).isEqualTo(4_000);
        assertThat(tier.holds(Digest.sha256(unused))).isFalse();
        assertThat(tier.holds(Digest.sha256(used))).isTrue();
    }

    @Test
    void theCacheStaysWithinItsCapacity() throws Exception {
        LayerTier tier = LayerTier.onDisk(dir, 100 * 1024, HOLD, clock);
        for (int i = 0; i < 20; i++) {
            byte[] bytes = layer(10 * 1024, i);
            stage(tier, bytes);
            tier.open(Digest.sha256(bytes), 0, -1).orElseThrow().close();
        }

        assertThat(tier.usedBytes()).isLessThanOrEqualTo(100 * 1024);
        try (var files = java.nio.file.Files.list(dir.resolve("layers"))) {
            assertThat(files.count()).isLessThanOrEqualTo(10);
        }
    }

    @Test
    void theDiskTierKeepsItsLayersOverARestart() throws Exception {
        byte[] bytes = layer(8_000, 5);
        LayerTier before = LayerTier.onDisk(dir, 1 << 20, HOLD, clock);
        stage(before, bytes);
        before.open(Digest.sha256(bytes), 0, -1).orElseThrow().close();

        LayerTier after = LayerTier.onDisk(dir, 1 << 20, HOLD, clock);

        assertThat(read(after.open(Digest.sha256(bytes), 0, -1))).isEqualTo(bytes);
    }
}
