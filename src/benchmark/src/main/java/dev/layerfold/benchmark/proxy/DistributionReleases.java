package dev.layerfold.benchmark.proxy;

import dev.layerfold.benchmark.codec.LayerOfSystemFiles;
import dev.layerfold.benchmark.dedup.LayerMaker;
import dev.layerfold.benchmark.dedup.ProducedLayer;
import dev.layerfold.benchmark.dedup.Producer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Successive releases of one distribution's images, as an upstream such as Docker Hub holds them: a
 * Debian-like base (one layer, GNU tar through {@code pigz -9} as debuerreotype builds it) and a
 * language image on top of it (the same base layer and one layer of the interpreter and its library,
 * written by {@code docker build}: Go's gzip at level 6). Each release is rebuilt from the one before:
 * a share of its files changed (security and point releases), a few added and removed, the package
 * manager's status file rewritten, and every file with the new build's modification time. So each
 * release repeats most files of the one before under new layer digests, and a blob-level store keeps
 * every release whole. The files are this machine's system files.
 */
final class DistributionReleases {

    /** Shares of a layer's files changed, added and removed per release, base and language layer apart. */
    private static final double BASE_CHANGED = 0.05;
    private static final double BASE_ADDED = 0.02;
    private static final double BASE_REMOVED = 0.01;
    private static final double LANGUAGE_CHANGED = 0.12;
    private static final double LANGUAGE_ADDED = 0.03;
    private static final double LANGUAGE_REMOVED = 0.02;
    private static final Instant FIRST_BUILD = Instant.parse("2026-01-06T00:00:00Z");

    /** One release: its tag and its two distinct layers (the language image's is on top of the base). */
    record Release(int number, String tag, ProducedLayer base, ProducedLayer language) {
    }

    private final LayerMaker maker;
    private final Path variants;
    private final Random random = new Random(31);
    private final List<Path> reserve;
    private final Map<String, Path> base = new TreeMap<>();
    private final Map<String, Path> language = new TreeMap<>();
    private int variantFiles;

    private DistributionReleases(LayerMaker maker, Path variants, List<Path> baseFiles, List<Path> languageFiles, List<Path> reserve) {
        this.maker = maker;
        this.variants = variants;
        this.reserve = new ArrayList<>(reserve);
        baseFiles.forEach(file -> base.put(inLayer(file), file));
        // The interpreter's files live under its own prefix, as /usr/local of a python or node image.
        languageFiles.forEach(file -> language.put("usr/local/" + inLayer(file), file));
    }

    /**
     * {@code count} releases, with a base layer of about {@code baseSize} bytes of files and a language
     * layer of about {@code languageSize}; the files changed in a release are written under
     * {@code variants}.
     */
    static List<Release> make(LayerMaker maker, Path variants, int count, long baseSize, long languageSize)
            throws IOException, InterruptedException {
        long reserveSize = (baseSize + languageSize) / 4;
        List<Path> files = new ArrayList<>(LayerOfSystemFiles.systemFiles(baseSize + languageSize + reserveSize, 8L << 20));
        // Mixed, so that each layer has libraries, programs and data files, as a distribution's layer has.
        Collections.shuffle(files, new Random(7));
        List<List<Path>> parts = cut(files, baseSize, languageSize);
        DistributionReleases releases = new DistributionReleases(maker, Files.createDirectories(variants), parts.get(0), parts.get(1),
                parts.get(2));
        List<Release> made = new ArrayList<>();
        for (int number = 1; number <= count; number++) {
            made.add(releases.next(number));
        }
        return made;
    }

    private Release next(int number) throws IOException, InterruptedException {
        if (number > 1) {
            evolve(base, "", BASE_CHANGED, BASE_ADDED, BASE_REMOVED);
            evolve(language, "usr/local/", LANGUAGE_CHANGED, LANGUAGE_ADDED, LANGUAGE_REMOVED);
        }
        Instant builtAt = FIRST_BUILD.plus(Duration.ofDays(14L * (number - 1)));
        Map<String, Path> baseEntries = new TreeMap<>(base);
        baseEntries.put("var/lib/dpkg/status", statusFile(number, "base", base));
        Map<String, Path> languageEntries = new TreeMap<>(language);
        languageEntries.put("usr/local/lib/python3/site-packages/RECORD", statusFile(number, "language", language));
        Producer languageProducer = maker.canMake(Producer.GO_6) ? Producer.GO_6 : Producer.JDK_ZLIB_6;
        String tag = "12." + number;
        return new Release(number, tag, maker.make("base " + tag, baseEntries, builtAt, Producer.PIGZ_9),
                maker.make("language " + tag, languageEntries, builtAt, languageProducer));
    }

    /** Changes, adds and removes shares of {@code layer}'s files, as a rebuild against newer packages does. */
    private void evolve(Map<String, Path> layer, String prefix, double changed, double added, double removed) throws IOException {
        List<String> paths = new ArrayList<>(layer.keySet());
        int files = paths.size();
        Collections.shuffle(paths, random);
        int toRemove = (int) Math.round(files * removed);
        int toChange = (int) Math.round(files * changed);
        for (String path : paths.subList(0, toRemove)) {
            layer.remove(path);
        }
        for (String path : paths.subList(toRemove, toRemove + toChange)) {
            layer.put(path, changedCopy(layer.get(path)));
        }
        for (int i = 0; i < Math.round(files * added) && !reserve.isEmpty(); i++) {
            Path file = reserve.removeLast();
            layer.put(prefix + inLayer(file), file);
        }
    }

    /** The file with a few bytes changed in place, as a rebuilt binary or a patched script differs from the last. */
    private Path changedCopy(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        for (int i = 0; i < 8 && bytes.length > 0; i++) {
            bytes[random.nextInt(bytes.length)] ^= (byte) (1 + random.nextInt(255));
        }
        return Files.write(variants.resolve("variant-" + ++variantFiles), bytes);
    }

    /** A package manager's record of what is installed, rewritten by every release (dpkg's status, pip's RECORD). */
    private Path statusFile(int number, String layer, Map<String, Path> files) throws IOException {
        StringBuilder status = new StringBuilder();
        TreeSet<String> packages = new TreeSet<>();
        files.keySet().forEach(path -> packages.add(path.contains("/") ? path.substring(0, path.lastIndexOf('/')) : path));
        for (String directory : packages) {
            status.append("Package: ").append(directory.replace('/', '-')).append("\nStatus: install ok installed\nVersion: ")
                    .append(number).append('.').append(Math.abs(directory.hashCode() % 97)).append("-").append(number)
                    .append("\nArchitecture: amd64\n\n");
        }
        return Files.writeString(variants.resolve("status-" + layer + "-" + number), status.toString(), StandardCharsets.UTF_8);
    }

    private static String inLayer(Path file) {
        return file.getRoot().relativize(file).toString();
    }

    /** The files cut into a part of about {@code first} bytes, one of about {@code second}, and the rest. */
    private static List<List<Path>> cut(List<Path> files, long first, long second) throws IOException {
        List<List<Path>> parts = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        long sum = 0;
        for (Path file : files) {
            sum += Files.size(file);
            parts.get(sum <= first ? 0 : sum <= first + second ? 1 : 2).add(file);
        }
        return parts;
    }
}
