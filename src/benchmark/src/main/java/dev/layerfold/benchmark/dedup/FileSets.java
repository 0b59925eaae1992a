package dev.layerfold.benchmark.dedup;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Cuts a list of files into consecutive parts of about the same number of bytes. */
final class FileSets {

    private FileSets() {
    }

    static List<List<Path>> ofEqualSize(List<Path> files, int parts) {
        long[] sizes = files.stream().mapToLong(FileSets::size).toArray();
        long total = 0;
        for (long size : sizes) {
            total += size;
        }
        List<List<Path>> result = new ArrayList<>();
        int start = 0;
        long sum = 0;
        for (int i = 0; i < files.size() && result.size() < parts - 1; i++) {
            sum += sizes[i];
            if (sum >= total * (result.size() + 1) / parts) {
                result.add(files.subList(start, i + 1));
                start = i + 1;
            }
        }
        result.add(files.subList(start, files.size()));
        return result;
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
