package dev.layerfold.e2e.dedup;

import dev.layerfold.e2e.blob.Sha256;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A made-up Linux distribution: packages of generated files, the same bytes whichever image installs
 * them, as a distribution's files are. Text files (documentation, scripts) compress like text; binary
 * ones (libraries, executables) mix random bytes with repeated blocks, compressing about as poorly as
 * machine code. Everything derives from seeds, so a run is repeatable.
 */
final class Distribution {

    private static final List<String> WORDS = vocabulary(new Random(0), 400);

    /** A package: file paths (relative to the root file system) and their contents. */
    record Package(String name, Map<String, byte[]> files) {

        /** The next version: {@code changed} of its files have new contents, the rest are the same bytes. */
        Package updated(long seed, int changed) {
            Random random = new Random(seed);
            Map<String, byte[]> next = new TreeMap<>(files);
            List<String> paths = new ArrayList<>(files.keySet());
            for (int i = 0; i < changed; i++) {
                String path = paths.get(random.nextInt(paths.size()));
                next.put(path, content(random, files.get(path).length, path.endsWith(".so")));
            }
            return new Package(name, next);
        }
    }

    private Distribution() {
    }

    /** A package of {@code count} files of about {@code meanSize} bytes, a quarter of them binary. */
    static Package generate(String name, long seed, int count, int meanSize) {
        Random random = new Random(seed);
        Map<String, byte[]> files = new TreeMap<>();
        for (int i = 0; i < count; i++) {
            boolean binary = i % 4 == 0;
            int size = meanSize / 4 + random.nextInt(meanSize * 3 / 2);
            String path = binary ? "usr/lib/" + name + "/lib" + name + "-" + i + ".so"
                    : "usr/share/" + name + "/" + WORDS.get(random.nextInt(WORDS.size())) + "-" + i + ".txt";
            files.put(path, content(random, size, binary));
        }
        return new Package(name, files);
    }

    /**
     * Writes the packages' files under {@code root}, each file and directory modified at {@code mtime},
     * as an image build at that time would; a later package's file replaces an earlier one's.
     */
    static Path writeTree(Path root, List<Package> packages, FileTime mtime) throws IOException {
        Files.createDirectories(root);
        for (Package pkg : packages) {
            for (Map.Entry<String, byte[]> file : pkg.files().entrySet()) {
                Path path = root.resolve(file.getKey());
                Files.createDirectories(path.getParent());
                Files.write(path, file.getValue());
                Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(
                        file.getKey().endsWith(".so") ? "rwxr-xr-x" : "rw-r--r--"));
            }
        }
        try (Stream<Path> all = Files.walk(root)) {
            for (Path path : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.setLastModifiedTime(path, mtime);
            }
        }
        return root;
    }

    /** The digests of the distinct file contents the packages hold together. */
    static Set<String> contentDigests(List<Package> packages) {
        return packages.stream().flatMap(pkg -> pkg.files().values().stream()).map(Sha256::of)
                .collect(Collectors.toSet());
    }

    private static byte[] content(Random random, int size, boolean binary) {
        return binary ? binary(random, size) : text(random, size);
    }

    private static byte[] text(Random random, int size) {
        StringBuilder text = new StringBuilder(size + 16);
        while (text.length() < size) {
            text.append(WORDS.get(random.nextInt(WORDS.size()))).append(random.nextInt(12) == 0 ? '\n' : ' ');
        }
        return text.substring(0, size).getBytes(StandardCharsets.US_ASCII);
    }

    /** 64-byte blocks, each either random or a copy of an earlier one. */
    private static byte[] binary(Random random, int size) {
        byte[] bytes = new byte[size];
        byte[] block = new byte[64];
        for (int offset = 0; offset < size; offset += block.length) {
            int length = Math.min(block.length, size - offset);
            if (offset >= 4096 && random.nextBoolean()) {
                int from = random.nextInt(offset / block.length) * block.length;
                System.arraycopy(bytes, from, bytes, offset, length);
            } else {
                random.nextBytes(block);
                System.arraycopy(block, 0, bytes, offset, length);
            }
        }
        return bytes;
    }

    private static List<String> vocabulary(Random random, int size) {
        List<String> words = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            StringBuilder word = new StringBuilder();
            for (int letters = 2 + random.nextInt(8); letters > 0; letters--) {
                word.append((char) ('a' + random.nextInt(26)));
            }
            words.add(word.toString());
        }
        return words;
    }
}
