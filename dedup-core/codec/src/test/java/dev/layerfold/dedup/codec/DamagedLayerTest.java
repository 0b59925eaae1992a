package dev.layerfold.dedup.codec;

import dev.layerfold.dedup.codec.io.LayerFormatException;
import dev.layerfold.dedup.codec.io.LayerRebuildException;
import dev.layerfold.dedup.codec.recipe.FileRef;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Damaged containers fail the split with a message naming the problem and produce no recipe;
 * damaged tar content never fails it: the unreadable rest is kept as one opaque body, said so,
 * and the rebuild is still exact.
 */
class DamagedLayerTest {

    private final MemoryFileStore store = new MemoryFileStore();

    @Test
    void truncatedGzipFailsWithTheOffsetAndAbortsTheOpenBody() throws Exception {
        byte[] layer = TestCodec.gzipMember(tarWithOneFile(randomBytes(400_000)), 6);
        byte[] truncated = Arrays.copyOf(layer, layer.length / 2);

        assertThatThrownBy(() -> TestCodec.splitter().split(TestCodec.stream(truncated), store))
                .isInstanceOf(LayerFormatException.class).hasMessageContaining("truncated");
        assertThat(store.aborted).isEqualTo(1);
    }

    @Test
    void gzipTruncatedInsideItsTrailerFails() throws Exception {
        byte[] layer = TestCodec.gzipMember(tarWithOneFile(new byte[10]), 6);

        assertThatThrownBy(() -> TestCodec.splitter().split(TestCodec.stream(Arrays.copyOf(layer, layer.length - 3)), store))
                .isInstanceOf(LayerFormatException.class).hasMessageContaining("truncated inside its trailer");
    }

    @Test
    void badCrcFailsTheSplit() throws Exception {
        byte[] layer = TestCodec.gzipMember(tarWithOneFile(randomBytes(1000)), 6);
        layer[layer.length - 6] ^= 1;

        assertThatThrownBy(() -> TestCodec.splitter().split(TestCodec.stream(layer), store))
                .isInstanceOf(LayerFormatException.class).hasMessageContaining("bad CRC32");
    }

    @Test
    void corruptDeflateDataFailsTheSplit() throws Exception {
        byte[] layer = TestCodec.gzipMember(tarWithOneFile("text ".repeat(10000).getBytes(StandardCharsets.US_ASCII)), 6);
        for (int i = 20; i < 60; i++) {
            layer[i] = (byte) 0xff;
        }

        assertThatThrownBy(() -> TestCodec.splitter().split(TestCodec.stream(layer), store))
                .isInstanceOf(LayerFormatException.class).hasMessageContaining("corrupt deflate data");
    }

    @Test
    void reservedGzipFlagsAreRefused() throws Exception {
        byte[] layer = TestCodec.gzipMember(new byte[1024], 6);
        layer[3] = (byte) 0x80;

        assertThatThrownBy(() -> TestCodec.splitter().split(TestCodec.stream(layer), store))
                .isInstanceOf(LayerFormatException.class).hasMessageContaining("reserved flag bits");
    }

    @Test
    void truncatedZstdLayerIsRefused() {
        byte[] zstd = {0x28, (byte) 0xb5, 0x2f, (byte) 0xfd, 0, 0, 0, 0};

        assertThatThrownBy(() -> TestCodec.splitter().split(TestCodec.stream(zstd), store))
                .isInstanceOf(LayerFormatException.class).hasMessageContaining("zstd");
        assertThat(store.completed).isZero();
    }

    @Test
    void corruptedTarHeaderKeepsTheRestAsOneOpaqueBodyAndRebuildsExactly() throws Exception {
        byte[] tar = new TarBlocks().header("a", '0', 5, false).data("aaaaa".getBytes(StandardCharsets.US_ASCII), (byte) 0)
                .header("b", '0', 3, false).data("bbb".getBytes(StandardCharsets.US_ASCII), (byte) 0).endOfArchive().bytes();
        tar[1024 + 10] ^= 0x55;
        byte[] layer = TestCodec.gzipMember(tar, 6);

        TestCodec.RoundTrip trip = TestCodec.roundTrip(TestCodec.splitter(), layer);

        assertThat(trip.rebuilt()).isEqualTo(layer);
        assertThat(trip.split().tarDamage()).hasValueSatisfying(damage -> assertThat(damage)
                .contains("bad checksum").contains("offset 1024").contains("remaining " + (tar.length - 1024) + " bytes"));
        assertThat(trip.store().bodies.keySet()).extracting(FileRef::size).containsExactlyInAnyOrder(5L, (long) tar.length - 1024);
    }

    @Test
    void bytesThatAreNotATarBecomeOneOpaqueBody() throws Exception {
        byte[] notTar = randomBytes(100_000);
        TestCodec.RoundTrip trip = TestCodec.roundTrip(TestCodec.splitter(), TestCodec.gzipMember(notTar, 1));

        assertThat(trip.split().tarDamage()).hasValueSatisfying(damage -> assertThat(damage).contains("no tar header at the start"));
        assertThat(trip.split().recipe().skeleton().fileCount()).isEqualTo(1);
        assertThat(trip.split().recipe().toBytes().length).isLessThan(200);
    }

    @Test
    void tarTruncatedInsideABodyKeepsTheShortBodyAndSaysSo() throws Exception {
        byte[] tar = tarWithOneFile(randomBytes(5000));
        byte[] truncated = Arrays.copyOf(tar, 512 + 3000);

        TestCodec.RoundTrip trip = TestCodec.roundTrip(TestCodec.splitter(), truncated);

        assertThat(trip.rebuilt()).isEqualTo(truncated);
        assertThat(trip.split().tarDamage()).hasValueSatisfying(damage -> assertThat(damage).contains("inside a file body"));
    }

    @Test
    void paxSizeOverridesTheHeaderSizeField() throws Exception {
        byte[] body = randomBytes(2000);
        byte[] tar = new TarBlocks().pax("size", "2000", "path", "big-by-pax").header("big", '0', 0, false).data(body, (byte) 0)
                .header("after", '0', 1, false).data(new byte[] {'z'}, (byte) 0).endOfArchive().bytes();

        TestCodec.RoundTrip trip = TestCodec.roundTrip(TestCodec.splitter(), tar);

        assertThat(trip.rebuilt()).isEqualTo(tar);
        assertThat(trip.split().tarDamage()).isEmpty();
        assertThat(trip.store().bodies.keySet()).extracting(FileRef::size).containsExactlyInAnyOrder(2000L, 1L);
    }

    @Test
    void base256SizeFieldIsRead() throws Exception {
        byte[] body = randomBytes(1500);
        byte[] tar = new TarBlocks().header("binary-size", '0', 1500, true).data(body, (byte) 0).endOfArchive().bytes();

        TestCodec.RoundTrip trip = TestCodec.roundTrip(TestCodec.splitter(), tar);

        assertThat(trip.rebuilt()).isEqualTo(tar);
        assertThat(trip.store().bodies.keySet()).extracting(FileRef::size).containsExactly(1500L);
    }

    @Test
    void nonZeroPaddingIsKeptInline() throws Exception {
        byte[] tar = new TarBlocks().header("f", '0', 10, false).data(new byte[10], (byte) 0x41).endOfArchive().bytes();

        TestCodec.RoundTrip trip = TestCodec.roundTrip(TestCodec.splitter(), tar);

        assertThat(trip.rebuilt()).isEqualTo(tar);
        assertThat(trip.split().tarDamage()).isEmpty();
    }

    @Test
    void rebuildFailsWhenABodyHasTheWrongContent() throws Exception {
        byte[] tar = tarWithOneFile(randomBytes(700));
        SplitResult split = TestCodec.splitter().split(TestCodec.stream(tar), store);
        FileRef ref = store.bodies.keySet().iterator().next();
        store.bodies.get(ref)[100] ^= 1;

        assertThatThrownBy(() -> TestCodec.rebuilder().rebuild(split.recipe(), store, new ByteArrayOutputStream()))
                .isInstanceOf(LayerRebuildException.class).hasMessageContaining("differs from the original");
    }

    @Test
    void aBlobDigestGivenByTheCallerIsTrustedAndAWrongOneFailsTheRebuild() throws Exception {
        byte[] layer = TestCodec.gzipMember(tarWithOneFile(randomBytes(700)), 6);
        String right = TarEdgeCaseRoundTripTest.sha256(layer);
        String wrong = "0".repeat(64);

        SplitResult trusted = TestCodec.splitter().split(TestCodec.stream(layer), right, store);
        SplitResult misled = TestCodec.splitter().split(TestCodec.stream(layer), wrong, store);

        ByteArrayOutputStream rebuilt = new ByteArrayOutputStream();
        TestCodec.rebuilder().rebuild(trusted.recipe(), store, rebuilt);
        assertThat(rebuilt.toByteArray()).isEqualTo(layer);
        assertThatThrownBy(() -> TestCodec.rebuilder().rebuild(misled.recipe(), store, new ByteArrayOutputStream()))
                .isInstanceOf(LayerRebuildException.class).hasMessageContaining("expected " + layer.length + " bytes with sha256 " + wrong);
    }

    @Test
    void rebuildFailsWhenABodyIsShort() throws Exception {
        byte[] tar = tarWithOneFile(randomBytes(700));
        SplitResult split = TestCodec.splitter().split(TestCodec.stream(tar), store);
        FileRef ref = store.bodies.keySet().iterator().next();
        store.bodies.put(ref, new byte[100]);

        assertThatThrownBy(() -> TestCodec.rebuilder().rebuild(split.recipe(), store, new ByteArrayOutputStream()))
                .isInstanceOf(LayerRebuildException.class).hasMessageContaining("600 bytes short");
    }

    @Test
    void bodiesOnTheHeapRebuildTheSameBytesAndFailWhenShortOrLong() throws Exception {
        byte[] tar = tarWithOneFile(randomBytes(200_000));
        SplitResult split = TestCodec.splitter().split(TestCodec.stream(tar), store);
        FileRef ref = store.bodies.keySet().iterator().next();
        byte[] body = store.bodies.get(ref);
        // A slice of a larger array, as a restore hands its fetched files over.
        byte[] run = new byte[body.length + 20];
        System.arraycopy(body, 0, run, 10, body.length);

        ByteArrayOutputStream rebuilt = new ByteArrayOutputStream();
        TestCodec.rebuilder().rebuild(split.recipe(), r -> new HeapFileBody(run, 10, body.length), rebuilt);
        assertThat(rebuilt.toByteArray()).isEqualTo(tar);
        assertThatThrownBy(() -> TestCodec.rebuilder().rebuild(split.recipe(), r -> new HeapFileBody(run, 10, body.length - 600),
                new ByteArrayOutputStream())).isInstanceOf(LayerRebuildException.class).hasMessageContaining("600 bytes short");
        assertThatThrownBy(() -> TestCodec.rebuilder().rebuild(split.recipe(), r -> new HeapFileBody(run, 10, body.length + 1),
                new ByteArrayOutputStream())).isInstanceOf(LayerRebuildException.class).hasMessageContaining("longer than");
    }

    static byte[] tarWithOneFile(byte[] body) {
        return new TarBlocks().header("file", '0', body.length, false).data(body, (byte) 0).endOfArchive().bytes();
    }

    static byte[] randomBytes(int size) {
        byte[] bytes = new byte[size];
        new Random(size).nextBytes(bytes);
        return bytes;
    }
}
