package dev.layerfold.benchmark.dedup;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Evicts given files from the kernel's page cache, so the next read of them goes to the disk: GNU
 * {@code dd iflag=nocache count=0} asks the kernel ({@code posix_fadvise(DONTNEED)}) to drop a whole
 * file's clean pages. Only these files are dropped, not the cache of the other users of a shared
 * machine; the files are synced first, since dirty pages cannot be dropped.
 */
final class PageCache {

    private PageCache() {
    }

    static void evict(List<Path> files) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("sh", "-c",
                "for f; do dd if=\"$f\" of=\"$f\" oflag=nocache conv=notrunc,fdatasync count=0 status=none"
                        + " && dd if=\"$f\" iflag=nocache count=0 status=none || exit 1; done", "sh"));
        files.forEach(file -> command.add(file.toString()));
        Process dd = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(dd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (dd.waitFor() != 0) {
            throw new IOException("could not evict " + files.size() + " files from the page cache: " + output);
        }
    }

    /** Bytes of {@code files} in the page cache, as {@code fincore} reports them (for the output). */
    static long cachedBytes(List<Path> files) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("fincore", "--bytes", "--noheadings", "--output", "RES"));
        files.forEach(file -> command.add(file.toString()));
        Process fincore = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String output = new String(fincore.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        fincore.waitFor();
        return output.lines().map(String::strip).filter(line -> !line.isEmpty()).mapToLong(Long::parseLong).sum();
    }
}
