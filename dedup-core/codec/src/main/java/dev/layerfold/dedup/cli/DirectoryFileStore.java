package dev.layerfold.dedup.cli;

import dev.layerfold.dedup.codec.FileContentSource;
import dev.layerfold.dedup.codec.io.FileSink;
import dev.layerfold.dedup.codec.recipe.FileRef;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** File bodies kept in a scratch directory, one file per distinct sha256, for the rebuild check. */
final class DirectoryFileStore implements FileSink, FileContentSource, AutoCloseable {

    private final Path dir;

    DirectoryFileStore(Path dir) {
        this.dir = dir;
    }

    @Override
    public Body begin(long declaredSize) throws IOException {
        Path partial = Files.createTempFile(dir, "body", ".partial");
        OutputStream out = Files.newOutputStream(partial);
        return new Body() {
            @Override
            public void write(byte[] data, int offset, int length) throws IOException {
                out.write(data, offset, length);
            }

            @Override
            public void complete(FileRef ref) throws IOException {
                out.close();
                try {
                    Files.move(partial, dir.resolve(ref.sha256()));
                } catch (FileAlreadyExistsException duplicate) {
                    Files.delete(partial);
                }
            }

            @Override
            public void abort() {
                try {
                    out.close();
                    Files.deleteIfExists(partial);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        };
    }

    @Override
    public InputStream open(FileRef ref) throws IOException {
        return Files.newInputStream(dir.resolve(ref.sha256()));
    }

    /** Deletes the directory and every body in it. */
    @Override
    public void close() throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
