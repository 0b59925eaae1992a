package dev.layerfold.storage.filesystem;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Durability barriers for the rename-based publish protocol. */
final class Fsync {

    private static final boolean DIRECTORIES_SYNCABLE = !System.getProperty("os.name", "").startsWith("Windows");

    private Fsync() {
    }

    /**
     * Makes a directory's entries (files created, renamed into or out of it) survive power loss.
     * A renamed file whose directory was not synced may reappear under its old name after a crash.
     */
    static void directory(Path dir) throws IOException {
        // Windows cannot open a directory as a channel; NTFS journals renames itself.
        if (!DIRECTORIES_SYNCABLE) {
            return;
        }
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }
}
