package dev.layerfold.dedup.codec.storedonly;

import dev.layerfold.dedup.codec.MemoryFileStore;
import dev.layerfold.dedup.codec.LayerRebuilder;
import dev.layerfold.dedup.codec.LayerSplitter;
import dev.layerfold.dedup.codec.SplitResult;
import dev.layerfold.dedup.codec.identify.EncoderFamilies;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;
import dev.layerfold.dedup.codec.recipe.Recipe;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Random;
import java.util.zip.CRC32;
import java.util.zip.GZIPInputStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Adding an encoder family touches one package: a layer written by a family the codec does not ship
 * ({@link StoredOnlyFamily}, registered only by {@link EncoderFamilies#with}) is split, identified,
 * stored as a recipe and rebuilt byte for byte.
 */
class StoredOnlyFamilyTest {

    private static final EncoderFamilies FAMILIES = EncoderFamilies.standard().with(new StoredOnlyFamily());

    @Test
    void aLayerOfAMadeUpFamilyRoundTripsThroughItsRecipe() throws Exception {
        byte[] tar = tar();
        byte[] layer = gzip(tar, StoredOnlyFamily.spec(4));
        assertThat(new GZIPInputStream(new ByteArrayInputStream(layer)).readAllBytes()).as("a valid gzip layer").isEqualTo(tar);

        MemoryFileStore store = new MemoryFileStore();
        SplitResult split = new LayerSplitter(FAMILIES.identifier()).split(new ByteArrayInputStream(layer), store);
        assertThat(split.identifications()).singleElement().satisfies(id -> assertThat(id.encoder()).isEqualTo(StoredOnlyFamily.spec(4)));
        assertThat(split.recipe().reproducible()).isTrue();
        assertThat(store.files()).isEqualTo(3);

        byte[] recipeBytes = split.recipe().toBytes();
        Recipe reread = Recipe.read(new ByteArrayInputStream(recipeBytes));
        assertThat(reread.toBytes()).isEqualTo(recipeBytes);
        assertThat(reread.members()).singleElement().satisfies(member -> assertThat(member.encoder()).isEqualTo(StoredOnlyFamily.spec(4)));

        ByteArrayOutputStream rebuilt = new ByteArrayOutputStream();
        new LayerRebuilder(FAMILIES).rebuild(reread, store, rebuilt);
        assertThat(sha256(rebuilt.toByteArray())).isEqualTo(sha256(layer));
        assertThat(rebuilt.toByteArray()).isEqualTo(layer);
    }

    @Test
    void withoutTheFamilyTheSameLayerHasNoEncoder() throws Exception {
        byte[] layer = gzip(tar(), StoredOnlyFamily.spec(4));

        SplitResult split = new LayerSplitter(EncoderFamilies.standard().identifier()).split(new ByteArrayInputStream(layer), new MemoryFileStore());

        assertThat(split.identifications()).singleElement().satisfies(id -> assertThat(id.encoder()).isEqualTo(EncoderSpec.NONE));
        assertThat(split.recipe().reproducible()).isFalse();
    }

    /** Two files of text and one of random bytes, each several blocks long. */
    private static byte[] tar() throws IOException {
        Random random = new Random(33);
        byte[] noise = new byte[23_456];
        random.nextBytes(noise);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(out)) {
            add(tar, "etc/motd", "an encoder family of its own\n".repeat(400).getBytes(StandardCharsets.UTF_8));
            add(tar, "usr/share/doc/readme", "stored blocks only\n".repeat(50).getBytes(StandardCharsets.UTF_8));
            add(tar, "usr/lib/blob.bin", noise);
        }
        return out.toByteArray();
    }

    private static void add(TarArchiveOutputStream tar, String name, byte[] body) throws IOException {
        TarArchiveEntry entry = new TarArchiveEntry(name);
        entry.setSize(body.length);
        entry.setModTime(1_700_000_000_000L);
        tar.putArchiveEntry(entry);
        tar.write(body);
        tar.closeArchiveEntry();
    }

    /** One gzip member as Go writes its header (OS 255), then what the family's encoder writes, then the trailer. */
    private static byte[] gzip(byte[] data, EncoderSpec spec) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 0xff});
        var encoder = new StoredOnlyFamily().encoder(spec, out);
        encoder.write(data, 0, data.length);
        encoder.finish();
        CRC32 crc = new CRC32();
        crc.update(data);
        for (long value : new long[] {crc.getValue(), data.length}) {
            for (int shift = 0; shift < 32; shift += 8) {
                out.write((int) (value >>> shift));
            }
        }
        return out.toByteArray();
    }

    private static byte[] sha256(byte[] bytes) throws Exception {
        return MessageDigest.getInstance("SHA-256").digest(bytes);
    }
}
