package dev.layerfold.benchmark.dedup;

import dev.layerfold.benchmark.codec.LayerOfSystemFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Images that share a distribution's files but not their layer blobs, as a registry receives them:
 * each has a base layer of the distribution's files, rebuilt at its own time and compressed by its own
 * producer (some leave out part of the distribution: another package set), and a layer of packages,
 * some of them shared with another image. No two layers are the same blob.
 */
final class ImageSet {

    /** One image's layers, base first. */
    record Image(String name, List<ProducedLayer> layers) {
    }

    private ImageSet() {
    }

    /**
     * Four images from about {@code distributionSize} of distribution files and four package sets of
     * about a quarter of that each.
     */
    static List<Image> make(LayerMaker maker, long distributionSize) throws IOException, InterruptedException {
        List<Path> all = LayerOfSystemFiles.systemFiles(2 * distributionSize, 16L << 20);
        List<List<Path>> halves = FileSets.ofEqualSize(all, 2);
        List<Path> distribution = halves.get(0);
        List<List<Path>> packages = FileSets.ofEqualSize(halves.get(1), 4);
        List<Image> images = new ArrayList<>();
        images.add(image(maker, "debian", distribution, packages.get(0), "2026-03-01T00:00:00Z", Producer.PIGZ_9));
        images.add(image(maker, "service", everyButOneIn(distribution, 7), packages.get(1), "2026-03-08T00:00:00Z", Producer.GO_6));
        images.add(image(maker, "java-app", distribution, concat(packages.get(0), packages.get(2)), "2026-03-15T00:00:00Z",
                Producer.JDK_ZLIB_6));
        images.add(image(maker, "tool", everyButOneIn(distribution, 3), concat(packages.get(1), packages.get(3)), "2026-03-22T00:00:00Z",
                Producer.GO_1));
        return images;
    }

    private static Image image(LayerMaker maker, String name, List<Path> base, List<Path> packages, String builtAt, Producer producer)
            throws IOException, InterruptedException {
        Producer made = maker.canMake(producer) ? producer : Producer.JDK_ZLIB_6;
        Instant time = Instant.parse(builtAt);
        return new Image(name, List.of(maker.make(name + "/base", base, time, made), maker.make(name + "/packages", packages, time, made)));
    }

    private static List<Path> everyButOneIn(List<Path> files, int n) {
        return IntStream.range(0, files.size()).filter(i -> i % n != 0).mapToObj(files::get).toList();
    }

    private static List<Path> concat(List<Path> first, List<Path> second) {
        List<Path> both = new ArrayList<>(first);
        both.addAll(second);
        return both;
    }
}
