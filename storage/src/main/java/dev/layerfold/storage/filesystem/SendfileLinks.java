package dev.layerfold.storage.filesystem;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Hard links to blobs, handed to the web server for sendfile and removed a while later. Tomcat opens a
 * sendfile by name after the request's handler has returned; a blob deleted in between (a dedup
 * worker thinning the layer, a garbage collection) would leave a client with headers and no body. A
 * link keeps the name valid for {@link #lifetime}: Tomcat opens it on the request's own thread right
 * after the handler, and its open file then outlives the link. A link costs no space of its own, but
 * holds a deleted blob's space until it goes.
 *
 * <p>Link names start with their creation time, so links left by a process that died are removed by
 * the next store opened on the directory, without touching those of a live process sharing it.
 */
final class SendfileLinks {

    private static final ScheduledExecutorService REMOVER = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("layerfold-sendfile-links").factory());

    private final Path directory;
    private final Duration lifetime;

    SendfileLinks(Path directory, Duration lifetime) throws IOException {
        this.directory = directory;
        this.lifetime = lifetime;
        Files.createDirectories(directory);
        removeLeftovers();
    }

    /**
     * A new name for {@code blob}'s file, valid for the links' lifetime whatever happens to the blob;
     * empty if the blob does not exist or the file system cannot link (the caller then streams the blob
     * from a descriptor of its own).
     */
    Optional<Path> link(Path blob) throws IOException {
        long now = System.currentTimeMillis();
        Path link = directory.resolve(now + "-" + UUID.randomUUID());
        try {
            Files.createLink(link, blob);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (UnsupportedOperationException | FileSystemException e) {
            return Optional.empty(); // a file system without hard links (or across mounts): no sendfile
        }
        removeAt(link, now + lifetime.toMillis());
        return Optional.of(link);
    }

    private void removeLeftovers() throws IOException {
        try (DirectoryStream<Path> links = Files.newDirectoryStream(directory)) {
            for (Path link : links) {
                removeAt(link, createdMillis(link) + lifetime.toMillis());
            }
        }
    }

    private static long createdMillis(Path link) {
        String name = link.getFileName().toString();
        int dash = name.indexOf('-');
        try {
            return Long.parseLong(dash < 0 ? name : name.substring(0, dash));
        } catch (NumberFormatException e) {
            return 0; // not one of ours by name: removed at once
        }
    }

    private static void removeAt(Path link, long dueMillis) {
        long delay = Math.max(0, dueMillis - System.currentTimeMillis());
        REMOVER.schedule(() -> {
            try {
                Files.deleteIfExists(link);
            } catch (IOException e) {
                // the next store opened on this directory removes it
            }
        }, delay, TimeUnit.MILLISECONDS);
    }
}
