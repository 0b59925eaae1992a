package dev.layerfold.predictor.tier;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.InvalidDigestException;
import dev.layerfold.storage.filesystem.FileRangeInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * Layers as files of a local directory, one per layer, named by its digest. A file gets its name only
 * once its bytes were verified and synced, so after a crash or a restart every named file is a whole
 * layer and the directory itself is the tier's index; unnamed leftovers are removed at start.
 */
final class DiskShelf implements Shelf {

    private final Path layers;
    private final Path incoming;

    DiskShelf(Path directory) throws IOException {
        this.layers = Files.createDirectories(directory.resolve("layers"));
        this.incoming = Files.createDirectories(directory.resolve("incoming"));
        try (Stream<Path> leftovers = Files.list(incoming)) {
            for (Path file : leftovers.toList()) {
                Files.deleteIfExists(file);
            }
        }
    }

    @Override
    public Writer writer(Digest digest, long size) throws IOException {
        Path temporary = incoming.resolve(UUID.randomUUID().toString());
        FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        OutputStream output = Channels.newOutputStream(channel);
        return new Writer() {
            @Override
            public OutputStream output() {
                return output;
            }

            @Override
            public Kept keep() throws IOException {
                try (channel) {
                    channel.force(false);
                }
                // Named apart from other copies of the layer, so dropping one never removes another's file.
                Path file = layers.resolve(name(digest) + "." + temporary.getFileName());
                Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE);
                return new OnDisk(file, size);
            }

            @Override
            public void abandon() {
                try (channel) {
                    Files.deleteIfExists(temporary);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot remove " + temporary, e);
                }
            }
        };
    }

    @Override
    public Map<Digest, Kept> existing() throws IOException {
        Map<Digest, Kept> found = new HashMap<>();
        try (Stream<Path> files = Files.list(layers)) {
            for (Path file : files.toList()) {
                String name = file.getFileName().toString();
                int dot = name.indexOf('.');
                try {
                    Digest digest = Digest.parse(name.substring(0, Math.max(dot, 0)).replace('-', ':'));
                    if (found.putIfAbsent(digest, new OnDisk(file, Files.size(file))) != null) {
                        Files.deleteIfExists(file); // a second copy of a layer already found
                    }
                } catch (InvalidDigestException e) {
                    Files.deleteIfExists(file); // not a name this shelf gives
                }
            }
        }
        return found;
    }

    private static String name(Digest digest) {
        return digest.algorithm().prefix() + "-" + digest.hex();
    }

    private record OnDisk(Path file, long size) implements Kept {
        @Override
        public InputStream open(long offset, long length) throws IOException {
            FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
            return new FileRangeInputStream(channel, offset, length < 0 ? size : Math.min(size, offset + length));
        }

        @Override
        public void discard() {
            try {
                Files.deleteIfExists(file);
            } catch (NoSuchFileException gone) {
                // dropped twice: nothing left to do
            } catch (IOException e) {
                throw new UncheckedIOException("cannot remove " + file + " from the disk tier", e);
            }
        }
    }
}
