package dev.layerfold.dedup.codec;

import dev.layerfold.dedup.codec.deflate.zlib.ReferenceTools;
import dev.layerfold.dedup.codec.identify.StandardEncoders;
import dev.layerfold.dedup.codec.recipe.Recipe;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Layers written by the real producers' tools, identified, split and rebuilt with the production
 * encoders. This is the evidence behind the README's producers table: which producers the codec
 * covers.
 * Go 1.27 layers come from the same layergen built with Go 1.27.3.
 */
class RealProducerLayerTest {

    @TempDir
    static Path shared;
    static Path source;
    static Path tar;
    static Path layergen;

    @TempDir
    Path dir;

    @BeforeAll
    static void makeSourceTreeAndLayerGenerator() throws Exception {
        source = shared.resolve("rootfs");
        // System files: headers (text) and an executable (binary), about 2 MB.
        Tools.sh(shared, "mkdir -p rootfs/usr/include rootfs/usr/bin && cp /usr/bin/tar rootfs/usr/bin/"
                + " && find /usr/include/linux -maxdepth 1 -type f | sort | sed -n 1,250p | xargs cp -t rootfs/usr/include"
                + " && ln -s tar rootfs/usr/bin/gtar && mkdir rootfs/tmp && tar --format=posix -C rootfs -cf layer.tar .");
        tar = shared.resolve("layer.tar");
        layergen = shared.resolve("layergen");
        Tools.run(ReferenceTools.sources("layergen").toAbsolutePath(), "go", "build", "-o", layergen.toString(), ".");
    }

    @Test
    void dockerAndBuildkitGoLevel6IsCovered() throws Exception {
        Tools.run(dir, layergen.toString(), "-level", "6", "-o", "layer.tgz", source.toString());
        assertCovered("go-6");
    }

    @Test
    void craneKoKanikoGoLevel1IsCovered() throws Exception {
        Tools.run(dir, layergen.toString(), "-level", "1", "-o", "layer.tgz", source.toString());
        assertCovered("go-1");
    }

    /**
     * Go 1.26's levels 0 and -2 (compression level 0, HuffmanOnly): level 0 is Go 1.27's stored blocks
     * but for the final block, so the member's ending tells the two apart.
     */
    @ParameterizedTest
    @ValueSource(ints = {0, -2})
    void goStoredAndHuffmanOnlyLayersAreCovered(int level) throws Exception {
        Tools.run(dir, layergen.toString(), "-level", Integer.toString(level), "-o", "layer.tgz", source.toString());
        assertCovered("go-" + level);
    }

    /** docker, buildkit, crane built with Go 1.27 or later: Go's klauspost-derived encoder. */
    @ParameterizedTest
    @ValueSource(ints = {6, 1, 9, 0, -2})
    void go127LayersAreCovered(int level) throws Exception {
        Tools.run(dir, layergen127().toString(), "-level", Integer.toString(level), "-o", "layer.tgz", source.toString());
        assertCovered("go127-" + level);
    }

    @Test
    void pythonTarfileZlibLevel9IsCovered() throws Exception {
        Tools.sh(dir, "python3 -c \"import tarfile\nt=tarfile.open('layer.tgz','w:gz')\nt.add('" + source + "',arcname='.')\nt.close()\"");
        assertCovered("zlib-9");
    }

    @Test
    void debianPigzBestIsCovered() throws Exception {
        Tools.sh(dir, "pigz -9 -c " + tar + " > layer.tgz");
        assertCovered("pigz-9/131072/0/0");
    }

    @Test
    void pigzLevel6IsCovered() throws Exception {
        Tools.sh(dir, "pigz -6 -c " + tar + " > layer.tgz");
        assertCovered("pigz-6/131072/0/0");
    }

    @Test
    void jibJavaGzipOutputStreamIsCovered() throws Exception {
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(dir.resolve("layer.tgz")))) {
            Files.copy(tar, out);
        }
        assertCovered("zlib-6");
    }

    @ParameterizedTest
    @ValueSource(strings = {"-6", "-9 -n", "-1"})
    void gnuGzipIsCovered(String options) throws Exception {
        Tools.sh(dir, "cp " + tar + " layer.tar && gzip " + options + " layer.tar && mv layer.tar.gz layer.tgz");
        assertCovered("gzip-" + options.substring(1, 2));
    }

    /** Debian 12's skopeo 1.9.3 is built with pgzip 1.2.5 over klauspost/compress 1.15.12 (its Built-Using). */
    @ParameterizedTest
    @CsvSource({"'', pgzip--1/1048576/11800", "9, pgzip-9/1048576/11512"})
    void skopeoPgzipIsCovered(String level, String encoder) throws Exception {
        writeOciLayout(dir.resolve("oci"), Files.readAllBytes(tar));
        List<String> copy = new ArrayList<>(List.of("skopeo", "copy", "--dest-compress"));
        if (!level.isEmpty()) {
            copy.addAll(List.of("--dest-compress-level", level));
        }
        copy.addAll(List.of("oci:oci:t", "dir:out"));
        Tools.run(dir, copy.toArray(String[]::new));
        Path layer;
        try (Stream<Path> blobs = Files.list(dir.resolve("out"))) {
            layer = blobs.filter(p -> p.getFileName().toString().matches("[0-9a-f]{64}")).max((a, b) -> Long.compare(a.toFile().length(), b.toFile().length()))
                    .orElseThrow();
        }
        Files.move(layer, dir.resolve("layer.tgz"));
        assertCovered(encoder);
    }

    /** layergen built with Go 1.27.3; aborts the test (fails it under CI) where that toolchain cannot be had. */
    private static synchronized Path layergen127() throws Exception {
        return Tools.goOracle("layergen", "go1.27.3", "Go 1.27 layers");
    }

    private void assertCovered(String encoder) throws Exception {
        byte[] blob = Files.readAllBytes(dir.resolve("layer.tgz"));
        MemoryFileStore store = new MemoryFileStore();
        SplitResult split = new LayerSplitter(StandardEncoders.identifier()).split(TestCodec.stream(blob), store);
        assertThat(split.identifications()).extracting(id -> id.encoder().label()).containsOnly(encoder);
        Recipe recipe = Recipe.read(TestCodec.stream(split.recipe().toBytes()));
        ByteArrayOutputStream rebuilt = new ByteArrayOutputStream();
        new LayerRebuilder(StandardEncoders.factory()).rebuild(recipe, store, rebuilt);
        assertThat(rebuilt.toByteArray()).isEqualTo(blob);
    }

    /** An OCI image layout with one uncompressed layer, as skopeo's source. */
    private static void writeOciLayout(Path oci, byte[] layer) throws Exception {
        Path blobs = Files.createDirectories(oci.resolve("blobs/sha256"));
        String layerDigest = blob(blobs, layer);
        byte[] config = ("{\"architecture\":\"amd64\",\"os\":\"linux\",\"rootfs\":{\"type\":\"layers\",\"diff_ids\":[\"sha256:" + layerDigest + "\"]}}")
                .getBytes(StandardCharsets.UTF_8);
        byte[] manifest = String.format("{\"schemaVersion\":2,\"mediaType\":\"application/vnd.oci.image.manifest.v1+json\","
                + "\"config\":{\"mediaType\":\"application/vnd.oci.image.config.v1+json\",\"digest\":\"sha256:%s\",\"size\":%d},"
                + "\"layers\":[{\"mediaType\":\"application/vnd.oci.image.layer.v1.tar\",\"digest\":\"sha256:%s\",\"size\":%d}]}",
                blob(blobs, config), config.length, layerDigest, layer.length).getBytes(StandardCharsets.UTF_8);
        Files.writeString(oci.resolve("index.json"), String.format("{\"schemaVersion\":2,\"manifests\":[{\"mediaType\":"
                + "\"application/vnd.oci.image.manifest.v1+json\",\"digest\":\"sha256:%s\",\"size\":%d,"
                + "\"annotations\":{\"org.opencontainers.image.ref.name\":\"t\"}}]}", blob(blobs, manifest), manifest.length));
        Files.writeString(oci.resolve("oci-layout"), "{\"imageLayoutVersion\":\"1.0.0\"}");
    }

    private static String blob(Path blobs, byte[] content) throws IOException {
        try {
            String digest = TarEdgeCaseRoundTripTest.sha256(content);
            Files.write(blobs.resolve(digest), content);
            return digest;
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
