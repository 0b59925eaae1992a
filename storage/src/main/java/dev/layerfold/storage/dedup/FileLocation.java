package dev.layerfold.storage.dedup;

import dev.layerfold.storage.Digest;
import java.util.Objects;

/**
 * Where a unique file's content is stored: a compressed frame of {@code length} bytes at
 * {@code offset} of the pack blob {@code pack}, which decompresses to the file's {@code size} bytes.
 */
public record FileLocation(Digest pack, long offset, long length, long size) {
    public FileLocation {
        Objects.requireNonNull(pack, "pack");
        if (offset < 0 || length <= 0 || size < 0) {
            throw new IllegalArgumentException("invalid file location: offset " + offset + ", length " + length + ", size " + size);
        }
    }
}
