package dev.layerfold.dedup.codec;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Random;

/** Small random tars for property tests of the codec's containers. */
final class RandomTars {

    private RandomTars() {
    }

    /** Up to 40 entries: text, random and empty files (some over the 64 KiB chunks), directories, symlinks. */
    static byte[] of(Random random) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(out)) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            int entries = 3 + random.nextInt(38);
            for (int i = 0; i < entries; i++) {
                int kind = random.nextInt(10);
                if (kind == 0) {
                    tar.putArchiveEntry(new TarArchiveEntry("dir" + i + "/"));
                } else if (kind == 1) {
                    TarArchiveEntry link = new TarArchiveEntry("link" + i, TarArchiveEntry.LF_SYMLINK);
                    link.setLinkName("file" + (i - 1));
                    tar.putArchiveEntry(link);
                } else {
                    byte[] content = content(random, kind);
                    TarArchiveEntry file = new TarArchiveEntry("dir/file" + i);
                    file.setSize(content.length);
                    tar.putArchiveEntry(file);
                    tar.write(content);
                }
                tar.closeArchiveEntry();
            }
        }
        return out.toByteArray();
    }

    private static byte[] content(Random random, int kind) {
        int size = switch (kind) {
            case 2 -> 0;
            case 3 -> 65_536 + random.nextInt(200_000);
            default -> random.nextInt(30_000);
        };
        if (kind == 4) {
            byte[] noise = new byte[size];
            random.nextBytes(noise);
            return noise;
        }
        StringBuilder text = new StringBuilder(size + 16);
        String[] words = {"layer", "stargz", "toc", "chunk", "gzip", "member", "file", "the", "of"};
        while (text.length() < size) {
            text.append(words[random.nextInt(words.length)]).append(random.nextInt(500)).append(random.nextInt(9) == 0 ? '\n' : ' ');
        }
        return text.substring(0, size).getBytes(StandardCharsets.US_ASCII);
    }
}
