package dev.layerfold.dedup.codec;

import dev.layerfold.dedup.codec.deflate.DeflateEncoder;
import dev.layerfold.dedup.codec.identify.EncoderFactory;
import dev.layerfold.dedup.codec.identify.EncoderIdentifier;
import dev.layerfold.dedup.codec.identify.StandardEncoders;
import dev.layerfold.dedup.codec.io.LayerRebuildException;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;
import dev.layerfold.dedup.codec.recipe.Recipe;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import java.util.zip.CRC32;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The codec wired with the test-only JDK encoder, and helpers to make gzip layers with it. */
final class TestCodec {

    static final EncoderFactory FACTORY = (spec, sink) -> {
        if (!spec.family().equals(JdkDeflaterEncoder.FAMILY)) {
            throw new IllegalArgumentException("test factory knows only " + JdkDeflaterEncoder.FAMILY + ", not " + spec);
        }
        return new JdkDeflaterEncoder(sink, spec.level());
    };
    static final List<EncoderSpec> CANDIDATES = List.of(jdk(6), jdk(9), jdk(1));

    private TestCodec() {
    }

    static EncoderSpec jdk(int level) {
        return EncoderSpec.of(JdkDeflaterEncoder.FAMILY, level);
    }

    static LayerSplitter splitter() {
        return splitter(EncoderIdentifier.DEFAULT_BUDGET);
    }

    static LayerSplitter splitter(long budget) {
        return new LayerSplitter(new EncoderIdentifier(CANDIDATES, FACTORY, budget));
    }

    static LayerRebuilder rebuilder() {
        return new LayerRebuilder(FACTORY);
    }

    /** One gzip member: a Go-like header (OS 255), the JDK's deflate output at {@code level}, the trailer. */
    static byte[] gzipMember(byte[] data, int level) throws IOException {
        return gzipMember(data, out -> new JdkDeflaterEncoder(out, level));
    }

    /** One gzip member: a Go-like header (OS 255), what {@code encoder} writes to its sink, the trailer. */
    static byte[] gzipMember(byte[] data, Function<OutputStream, DeflateEncoder> encoderOf) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 0xff});
        DeflateEncoder encoder = encoderOf.apply(out);
        encoder.write(data, 0, data.length);
        encoder.finish();
        CRC32 crc = new CRC32();
        crc.update(data);
        writeIntLe(out, (int) crc.getValue());
        writeIntLe(out, data.length);
        return out.toByteArray();
    }

    static byte[] gzipMember(Path file, int level) throws IOException {
        return gzipMember(Files.readAllBytes(file), level);
    }

    private static void writeIntLe(OutputStream out, int value) throws IOException {
        out.write(value);
        out.write(value >>> 8);
        out.write(value >>> 16);
        out.write(value >>> 24);
    }

    /** Splits, writes and re-reads the recipe, rebuilds from the stored bodies; returns the rebuilt bytes and the split. */
    static RoundTrip roundTrip(LayerSplitter splitter, byte[] blob) throws IOException {
        return roundTrip(splitter, rebuilder(), blob);
    }

    /** As {@link #roundTrip(LayerSplitter, byte[])}, rebuilding with {@code rebuilder}. */
    static RoundTrip roundTrip(LayerSplitter splitter, LayerRebuilder rebuilder, byte[] blob) throws IOException {
        MemoryFileStore store = new MemoryFileStore();
        SplitResult split = splitter.split(new ByteArrayInputStream(blob), store);
        Recipe reread = Recipe.read(new ByteArrayInputStream(split.recipe().toBytes()));
        ByteArrayOutputStream rebuilt = new ByteArrayOutputStream();
        rebuilder.rebuild(reread, store, rebuilt);
        return new RoundTrip(split, store, rebuilt.toByteArray());
    }

    record RoundTrip(SplitResult split, MemoryFileStore store, byte[] rebuilt) {
    }

    /** Splits {@code blob} with the production codec and checks that it is split but cannot be rebuilt: no encoder reproduces it. */
    static SplitResult assertSplitButNotRebuildable(byte[] blob) throws IOException {
        MemoryFileStore store = new MemoryFileStore();
        SplitResult split = new LayerSplitter(StandardEncoders.identifier()).split(stream(blob), store);
        assertThat(split.recipe().reproducible()).isFalse();
        assertThat(split.recipe().skeleton().fileCount()).isPositive();
        assertThatThrownBy(() -> new LayerRebuilder(StandardEncoders.factory()).rebuild(split.recipe(), store, OutputStream.nullOutputStream()))
                .isInstanceOf(LayerRebuildException.class);
        return split;
    }

    static InputStream stream(byte[] bytes) {
        return new ByteArrayInputStream(bytes);
    }
}
