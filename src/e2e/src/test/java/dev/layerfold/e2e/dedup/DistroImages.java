package dev.layerfold.e2e.dedup;

import dev.layerfold.e2e.dedup.Distribution.Package;
import dev.layerfold.e2e.oci.ImageWriter;
import dev.layerfold.e2e.oci.ImageWriter.Platform;
import dev.layerfold.e2e.oci.OciLayout;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A realistic set of images: each installs the same base distribution plus its own packages, was
 * built at its own time (so every file header differs) and compressed by another producer, so they
 * share most file contents but no layer blob. Each image is an OCI layout of its own, tagged
 * {@value #TAG}, so crane (one image per layout) and skopeo both push it.
 */
final class DistroImages {

    static final String TAG = "v1";
    private static final Platform AMD64 = new Platform("linux", "amd64");

    /** One layer of an image: who wrote it, its blob, and the file contents it holds. */
    record Layer(Producer producer, ImageWriter.Layer written, Set<String> files) {
        long size() {
            return written.blob().size();
        }
    }

    /** An image: its name and the layout holding it. */
    record Image(String name, OciLayout layout, List<Layer> layers) {

        /** Where the tests push it. */
        String repository() {
            return "e2e/dedup/" + name;
        }
    }

    private final List<Image> images;

    DistroImages(List<Image> images) {
        this.images = images;
    }

    List<Image> images() {
        return images;
    }

    /** About 3 MB of base distribution and up to 1 MB of packages per image; layers of 1-2 MB each. */
    static DistroImages write(Path root) throws IOException, InterruptedException {
        List<Package> base = List.of(
                Distribution.generate("base-files", 1, 40, 2_000),
                Distribution.generate("libc6", 2, 30, 40_000),
                Distribution.generate("coreutils", 3, 80, 10_000),
                Distribution.generate("bash", 4, 20, 20_000),
                Distribution.generate("apt", 5, 50, 8_000));
        // The perl image was built after a libc6 update: five of its files changed, the rest did not.
        List<Package> updatedBase = new ArrayList<>(base);
        updatedBase.set(1, base.get(1).updated(6, 5));

        List<Image> images = new ArrayList<>();
        ImageBuilder builder = new ImageBuilder(root);
        images.add(builder.image("buildkit/python", 1, List.of(
                new LayerSpec(Producer.GO_GZIP_6, with(base, Distribution.generate("python3", 10, 120, 8_000))),
                new LayerSpec(Producer.GO_GZIP_1, List.of(Distribution.generate("app", 11, 10, 5_000))))));
        images.add(builder.image("jib/jre", 2, List.of(
                new LayerSpec(Producer.JDK_GZIP, with(base, Distribution.generate("jre", 12, 20, 50_000))))));
        images.add(builder.image("debian/perl", 3, List.of(
                new LayerSpec(Producer.PIGZ_9, with(updatedBase, Distribution.generate("perl", 13, 100, 6_000))))));
        images.add(builder.image("gnu/vim", 4, List.of(
                new LayerSpec(Producer.GNU_GZIP, with(base, Distribution.generate("vim", 14, 40, 10_000))),
                new LayerSpec(Producer.GNU_GZIP_RSYNCABLE, List.of(Distribution.generate("vim-runtime", 16, 30, 5_000))))));
        images.add(builder.image("zstd/base", 5, List.of(new LayerSpec(Producer.ZSTD, base))));
        images.add(builder.image("plain/curl", 6, List.of(
                new LayerSpec(Producer.TAR, with(base, Distribution.generate("curl", 15, 15, 20_000))))));
        return new DistroImages(images);
    }

    /**
     * Three images of four layers each, about 1.5 MB each before compression: every layer installs two
     * of five shared library packages and one of its own; producers take turns (Go gzip 6, JDK gzip,
     * pigz -9). Many layers sharing files, so that kills at random times land in every step of the
     * pipeline, and a killed worker's files are met again by other layers.
     */
    static DistroImages layered(Path root) throws IOException, InterruptedException {
        List<Package> libraries = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            libraries.add(Distribution.generate("lib" + i, 100 + i, 25, 20_000));
        }
        List<Producer> producers = List.of(Producer.GO_GZIP_6, Producer.JDK_GZIP, Producer.PIGZ_9);
        ImageBuilder builder = new ImageBuilder(root);
        List<Image> images = new ArrayList<>();
        int layer = 0;
        for (int image = 0; image < 3; image++) {
            List<LayerSpec> layers = new ArrayList<>();
            for (int i = 0; i < 4; i++, layer++) {
                layers.add(new LayerSpec(producers.get(layer % producers.size()), List.of(
                        libraries.get(layer % 5), libraries.get((layer + 2) % 5),
                        Distribution.generate("pkg" + layer, 200 + layer, 20, 25_000))));
            }
            images.add(builder.image("layered/app" + image, 10 + image, layers));
        }
        return new DistroImages(images);
    }

    static List<Package> with(List<Package> base, Package extra) {
        return Stream.concat(base.stream(), Stream.of(extra)).toList();
    }

    /** Every layer of every image. */
    List<Layer> layers() {
        return images.stream().flatMap(image -> image.layers().stream()).toList();
    }

    /** The layers the pipeline is expected to deduplicate. */
    List<Layer> deduplicatable() {
        return layers().stream().filter(layer -> layer.producer().intactReason().isEmpty()).toList();
    }

    /** How many layers are expected to stay intact, by the reason the admin endpoint gives. */
    Map<String, Long> intactByReason() {
        Map<String, Long> reasons = new TreeMap<>();
        for (Layer layer : layers()) {
            layer.producer().intactReason().ifPresent(reason -> reasons.merge(reason, 1L, Long::sum));
        }
        return reasons;
    }

    /** The distinct file contents of the deduplicated layers: what the registry should store once each. */
    Set<String> uniqueFiles() {
        Set<String> files = new HashSet<>();
        deduplicatable().forEach(layer -> files.addAll(layer.files()));
        return files;
    }

    /** A layer to write: the packages it installs, and the producer that writes it. */
    record LayerSpec(Producer producer, List<Package> packages) {
    }

    /** Writes images into layouts under one root, each built at its own time. */
    record ImageBuilder(Path root) {

        Image image(String name, int buildDay, List<LayerSpec> layers) throws IOException, InterruptedException {
            String dir = name.replace('/', '-');
            OciLayout layout = OciLayout.create(root.resolve(dir));
            ImageWriter writer = new ImageWriter(layout);
            FileTime builtAt = FileTime.from(Instant.parse("2024-03-01T10:00:00Z").plusSeconds(86_400L * buildDay));
            List<Layer> written = new ArrayList<>();
            for (int i = 0; i < layers.size(); i++) {
                LayerSpec layer = layers.get(i);
                Path tree = Distribution.writeTree(root.resolve("trees").resolve(dir + "-" + i), layer.packages(), builtAt);
                ImageWriter.Layer blob = layer.producer().write(tree, layout, root.resolve("work").resolve(dir + "-" + i));
                written.add(new Layer(layer.producer(), blob, Distribution.contentDigests(layer.packages())));
            }
            layout.tag(TAG, writer.image(AMD64, written.stream().map(Layer::written).toList()));
            return new Image(name, layout, written);
        }
    }
}
