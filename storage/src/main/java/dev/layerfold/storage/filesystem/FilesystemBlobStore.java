package dev.layerfold.storage.filesystem;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.blob.ListedBlob;
import dev.layerfold.storage.blob.UploadNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Blobs as files on a local (or shared POSIX) file system.
 *
 * <p>Layout under the root: {@code blobs/<algorithm>/<first two hex>/<hex>} for published blobs and
 * {@code uploads/<upload id>} for uploads in progress; {@code sendfile/} holds short-lived links to blobs
 * being sent (see {@link SendfileLinks}). Nothing is ever written inside {@code blobs}
 * except by an atomic rename of a complete, fsynced upload, so a crash at any moment leaves either
 * the upload or the whole blob, never a partial blob. Readers hold their own file descriptor, so a
 * blob deleted or replaced by an identical copy mid-read keeps streaming the bytes it started with.
 */
public final class FilesystemBlobStore implements BlobStore {

    /**
     * Bytes gathered from the request body before each write. Tomcat hands a body over in pieces the
     * size of its socket buffer (8 KiB by default); writing each piece would cost a system call per 8 KiB.
     */
    private static final int WRITE_BUFFER_SIZE = 256 * 1024;

    /**
     * The first gathering buffer of an append, which grows to {@link #WRITE_BUFFER_SIZE} as it fills: a
     * client that sends its body slowly (or stalls) then holds 4 KiB of heap, not 256.
     */
    private static final int FIRST_WRITE_BUFFER_SIZE = 4 * 1024;

    /**
     * How long a file handed out for sendfile stays valid after its blob is deleted: Tomcat opens it
     * within microseconds of the handler returning, so a minute covers any pause of the process.
     */
    private static final Duration SENDFILE_LINK_LIFETIME = Duration.ofMinutes(1);

    private final Path blobs;
    private final Path uploads;
    private final SendfileLinks sendfileLinks;

    /** Opens the store under {@code root}, creating the directory layout if it is missing. */
    public FilesystemBlobStore(Path root) throws IOException {
        this(root, SENDFILE_LINK_LIFETIME);
    }

    FilesystemBlobStore(Path root, Duration sendfileLinkLifetime) throws IOException {
        Path absoluteRoot = root.toAbsolutePath();
        this.blobs = absoluteRoot.resolve("blobs");
        this.uploads = absoluteRoot.resolve("uploads");
        createDirectoriesDurably(blobs);
        createDirectoriesDurably(uploads);
        this.sendfileLinks = new SendfileLinks(absoluteRoot.resolve("sendfile"), sendfileLinkLifetime);
    }

    @Override
    public Optional<Long> size(Digest digest) throws IOException {
        try {
            return Optional.of(Files.size(blobPath(digest)));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    @Override
    public Optional<InputStream> open(Digest digest, long offset, long length) throws IOException {
        if (offset < 0) {
            throw new IllegalArgumentException("offset must not be negative, was " + offset);
        }
        FileChannel channel;
        try {
            channel = FileChannel.open(blobPath(digest), StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        try {
            long size = channel.size();
            long end = length < 0 || length > size - offset ? size : offset + length;
            return Optional.of(new FileRangeInputStream(channel, offset, end));
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /**
     * A link to the blob, not the blob's own path, so that a delete before the web server opens it
     * costs nothing (see {@link SendfileLinks}). Blobs are never written in place, so it holds exactly
     * the published bytes.
     */
    @Override
    public Optional<Path> localFile(Digest digest) throws IOException {
        return sendfileLinks.link(blobPath(digest));
    }

    @Override
    public boolean delete(Digest digest) throws IOException {
        Path blob = blobPath(digest);
        if (!Files.deleteIfExists(blob)) {
            return false;
        }
        Fsync.directory(blob.getParent());
        return true;
    }

    @Override
    public void startUpload(String uploadId) throws IOException {
        UploadIds.requireSafe(uploadId);
        Files.createFile(uploads.resolve(uploadId));
        Fsync.directory(uploads);
    }

    /**
     * All or nothing: if reading {@code data} fails, the upload is cut back to its previous size. The
     * bytes are not synced to disk until {@link #publish}: they survive a crash of this process, while a
     * power loss may cut the upload short (the client resumes from the shorter {@link #uploadSize}) or
     * leave its tail unwritten, which fails the digest check on completion instead of publishing it.
     */
    @Override
    public long append(String uploadId, InputStream data) throws IOException {
        Path upload = uploadPath(uploadId);
        try (FileChannel channel = openUpload(uploadId, StandardOpenOption.WRITE)) {
            long start = channel.size();
            try {
                long position = start;
                byte[] buffer = new byte[FIRST_WRITE_BUFFER_SIZE];
                for (int filled = data.readNBytes(buffer, 0, buffer.length); filled > 0;
                        filled = data.readNBytes(buffer, 0, buffer.length)) {
                    if (filled == buffer.length && buffer.length < WRITE_BUFFER_SIZE) {
                        buffer = Arrays.copyOf(buffer, Math.min(WRITE_BUFFER_SIZE, buffer.length * 4));
                    }
                    ByteBuffer chunk = ByteBuffer.wrap(buffer, 0, filled);
                    long before = position;
                    while (chunk.hasRemaining()) {
                        position += channel.write(chunk, position);
                    }
                    if (EarlyWriteback.due(before, position)) {
                        EarlyWriteback.start(upload);
                    }
                }
                // No fsync here: a process crash keeps the page cache, so uploadSize still reports these
                // bytes, and completing the upload re-reads them; publish makes them durable (and
                // EarlyWriteback has written most of them by then).
                return position;
            } catch (IOException | RuntimeException | Error e) {
                try {
                    channel.truncate(start);
                } catch (IOException truncateFailure) {
                    e.addSuppressed(truncateFailure);
                }
                throw e;
            }
        }
    }

    @Override
    public long uploadSize(String uploadId) throws IOException {
        try (FileChannel channel = openUpload(uploadId, StandardOpenOption.READ)) {
            return channel.size();
        }
    }

    @Override
    public InputStream openUpload(String uploadId, long offset) throws IOException {
        if (offset < 0) {
            throw new IllegalArgumentException("offset must not be negative, was " + offset);
        }
        FileChannel channel = openUpload(uploadId, StandardOpenOption.READ);
        try {
            return new FileRangeInputStream(channel, offset, channel.size());
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    @Override
    public void publish(String uploadId, Digest digest) throws IOException {
        Path upload = uploadPath(uploadId);
        try (FileChannel channel = openUpload(uploadId, StandardOpenOption.WRITE)) {
            channel.force(true);
        }
        Path blob = blobPath(digest);
        if (Files.exists(blob)) {
            Files.deleteIfExists(upload);
            // The blob may come from a concurrent publisher that renamed it but has not synced yet.
            Fsync.directory(blob.getParent());
            return;
        }
        createDirectoriesDurably(blob.getParent());
        try {
            // Two publishers of the same digest may both get here; the second rename replaces the first
            // blob with identical bytes, and readers of the first keep their open file.
            Files.move(upload, blob, StandardCopyOption.ATOMIC_MOVE);
        } catch (NoSuchFileException e) {
            throw new UploadNotFoundException(uploadId); // aborted concurrently
        } catch (AtomicMoveNotSupportedException e) {
            throw new IOException("cannot publish blob " + digest + ": " + uploads + " and " + blobs
                    + " must be on the same file system, so that a blob appears by one atomic rename", e);
        }
        Fsync.directory(blob.getParent());
        Fsync.directory(uploads);
    }

    @Override
    public void abortUpload(String uploadId) throws IOException {
        if (UploadIds.isSafe(uploadId)) {
            // No directory sync: an aborted upload that reappears after a crash is garbage, not a blob.
            Files.deleteIfExists(uploads.resolve(uploadId));
        }
    }

    /**
     * Aborts every upload whose bytes were last written before {@code cutoff} and returns their ids, for
     * sweeping uploads that clients abandoned (including any whose upload state was never recorded).
     * An upload resumed at the very moment it is found idle loses that append, so choose a cutoff far
     * beyond any client's pause.
     */
    @Override
    public List<String> abortUploadsIdleSince(Instant cutoff) throws IOException {
        List<String> aborted = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(uploads)) {
            for (Path upload : entries) {
                try {
                    if (Files.getLastModifiedTime(upload).toInstant().isBefore(cutoff) && Files.deleteIfExists(upload)) {
                        aborted.add(upload.getFileName().toString());
                    }
                } catch (NoSuchFileException e) {
                    // published or aborted while we looked
                }
            }
        }
        return aborted;
    }

    /** Walks {@code blobs/<algorithm>/<first two hex>/<hex>} in digest order, skipping directories wholly before {@code after}. */
    @Override
    public List<ListedBlob> list(Optional<Digest> after, int limit) throws IOException {
        String from = after.map(Digest::toString).orElse("");
        List<ListedBlob> listed = new ArrayList<>();
        for (Path algorithm : sortedEntries(blobs)) {
            String prefix = algorithm.getFileName() + ":";
            for (Path shard : sortedEntries(algorithm)) {
                if ((prefix + shard.getFileName() + "\uffff").compareTo(from) <= 0) {
                    continue;
                }
                for (Path file : sortedEntries(shard)) {
                    String text = prefix + file.getFileName();
                    if (text.compareTo(from) <= 0) {
                        continue;
                    }
                    Optional<Digest> digest = parseDigest(text);
                    if (digest.isEmpty()) {
                        continue;
                    }
                    try {
                        listed.add(new ListedBlob(digest.get(), Files.getLastModifiedTime(file).toInstant()));
                    } catch (NoSuchFileException deletedMeanwhile) {
                        continue;
                    }
                    if (listed.size() == limit) {
                        return listed;
                    }
                }
            }
        }
        return listed;
    }

    private static List<Path> sortedEntries(Path directory) throws IOException {
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        try (var entries = Files.list(directory)) {
            return entries.sorted((a, b) -> a.getFileName().toString().compareTo(b.getFileName().toString())).toList();
        }
    }

    private static Optional<Digest> parseDigest(String text) {
        try {
            return Optional.of(Digest.parse(text));
        } catch (IllegalArgumentException notABlob) {
            return Optional.empty();
        }
    }

    private Path blobPath(Digest digest) {
        return blobs.resolve(digest.algorithm().prefix()).resolve(digest.hex().substring(0, 2)).resolve(digest.hex());
    }

    private Path uploadPath(String uploadId) throws UploadNotFoundException {
        if (!UploadIds.isSafe(uploadId)) {
            throw new UploadNotFoundException(uploadId); // cannot name an upload this store created
        }
        return uploads.resolve(uploadId);
    }

    private FileChannel openUpload(String uploadId, StandardOpenOption mode) throws IOException {
        try {
            return FileChannel.open(uploadPath(uploadId), mode);
        } catch (NoSuchFileException e) {
            throw new UploadNotFoundException(uploadId);
        }
    }

    /**
     * Creates {@code dir} and its missing parents, syncing each new entry into its parent, so a blob
     * renamed into it cannot vanish with its directory after a power loss.
     */
    private static void createDirectoriesDurably(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            return;
        }
        Path topmostMissing = dir;
        while (topmostMissing.getParent() != null && !Files.isDirectory(topmostMissing.getParent())) {
            topmostMissing = topmostMissing.getParent();
        }
        Files.createDirectories(dir);
        for (Path created = dir; ; created = created.getParent()) {
            Fsync.directory(created.getParent());
            if (created.equals(topmostMissing)) {
                return;
            }
        }
    }
}
