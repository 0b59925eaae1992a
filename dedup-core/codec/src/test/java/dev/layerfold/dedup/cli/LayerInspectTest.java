package dev.layerfold.dedup.cli;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPOutputStream;

import static org.assertj.core.api.Assertions.assertThat;

class LayerInspectTest {

    @TempDir
    Path dir;
    Path layer;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @BeforeEach
    void makeJavaWrittenLayer() throws Exception {
        Process tar = new ProcessBuilder("bash", "-c", "mkdir -p src/etc && seq 1 20000 > src/etc/numbers && cp /usr/bin/tar src/ && tar -C src -cf layer.tar .")
                .directory(dir.toFile()).inheritIO().start();
        assertThat(tar.waitFor()).isZero();
        layer = dir.resolve("layer.tgz");
        try (OutputStream gzip = new GZIPOutputStream(Files.newOutputStream(layer))) {
            Files.copy(dir.resolve("layer.tar"), gzip);
        }
    }

    @Test
    void printsFormatEncoderFilesAndRebuildPerLayer() {
        int status = run(layer.toString(), dir.resolve("layer.tar").toString());

        assertThat(status).isZero();
        List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).contains("gzip, encoder zlib-6 (", "2 files in", "rebuild matched");
        assertThat(lines.get(1)).contains("tar, 2 files", "rebuild matched");
    }

    @Test
    void jsonOutputHasOneObjectPerLayer() throws Exception {
        Path zstd = Files.write(dir.resolve("layer.zst"), new byte[] {0x28, (byte) 0xb5, 0x2f, (byte) 0xfd, 0});

        int status = run("--json", layer.toString(), zstd.toString());

        String json = out.toString(StandardCharsets.UTF_8);
        assertThat(status).as("a layer that could not be split fails the run").isEqualTo(1);
        assertThat((String) JsonPath.read(json, "$[0].encoder")).isEqualTo("zlib-6");
        assertThat((Integer) JsonPath.read(json, "$[0].files")).isEqualTo(2);
        assertThat((Integer) JsonPath.read(json, "$[0].blobBytes")).isEqualTo((int) Files.size(layer));
        assertThat((String) JsonPath.read(json, "$[0].rebuild")).isEqualTo("matched");
        assertThat((String) JsonPath.read(json, "$[1].format")).isEqualTo("zstd");
        assertThat((String) JsonPath.read(json, "$[1].error")).contains("ends inside a zstd frame header");
    }

    @Test
    void layerNoEncoderReproducesIsReportedAndNotAFailure() throws Exception {
        // pigz with 64 KiB blocks: no candidate tries that block size.
        Process gzip = new ProcessBuilder("bash", "-c", "pigz -6 -b 64 -c layer.tar > gnu.tgz").directory(dir.toFile()).inheritIO().start();
        assertThat(gzip.waitFor()).isZero();

        int status = run(dir.resolve("gnu.tgz").toString());

        assertThat(status).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("encoder none (deflate stream matches no known encoder; likely producer: ", "rebuild impossible");
    }

    @Test
    void aZstdLayerIsSplitAndRebuiltAndOneNoEncoderReproducesSaysWhy() throws Exception {
        Path covered = zstd("covered.zst", false);
        Path odd = zstd("odd.zst", true);

        int status = run(covered.toString(), odd.toString());

        assertThat(status).isZero();
        List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(lines.get(0)).contains("zstd, encoder libzstd1.5.7-3/0/0/0/0 (whole-stream)", "2 files in", "rebuild matched");
        assertThat(lines.get(1)).contains("zstd, encoder none (zstd stream matches no known encoder", "likely producer: libzstd of another release",
                "rebuild impossible");
    }

    /** The tar through zstd-jni's stream at level 3; {@code oddWindow}: with a window no level has by default. */
    private Path zstd(String name, boolean oddWindow) throws Exception {
        Path file = dir.resolve(name);
        try (com.github.luben.zstd.ZstdOutputStream zstd = new com.github.luben.zstd.ZstdOutputStream(Files.newOutputStream(file), 3)) {
            if (oddWindow) {
                zstd.setWindowLog(24);
            }
            Files.copy(dir.resolve("layer.tar"), zstd);
        }
        return file;
    }

    @Test
    void missingArgumentsPrintUsage() {
        assertThat(run()).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("usage: layerfold-codec");
    }

    private int run(String... args) {
        return LayerInspect.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }
}
