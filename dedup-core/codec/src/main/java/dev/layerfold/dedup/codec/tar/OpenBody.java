package dev.layerfold.dedup.codec.tar;

import dev.layerfold.dedup.codec.io.FileSink;
import dev.layerfold.dedup.codec.recipe.FileRef;

import java.io.IOException;
import java.security.MessageDigest;

/** A body being streamed to the sink while its sha256 and size are computed. */
final class OpenBody {

    private final FileSink.Body target;
    private final MessageDigest sha256;
    private long size;

    /**
     * @param sha256 the splitter's one digest, reused for every body (only one is open at a time):
     *               a layer of small files would otherwise spend a measurable share of its split
     *               looking up a new one per file
     * @param declaredSize the size the tar header gives, or -1 if unknown
     */
    OpenBody(FileSink sink, MessageDigest sha256, long declaredSize) throws IOException {
        this.target = sink.begin(declaredSize);
        this.sha256 = sha256;
        sha256.reset();
    }

    void write(byte[] data, int offset, int length) throws IOException {
        sha256.update(data, offset, length);
        size += length;
        target.write(data, offset, length);
    }

    FileRef complete() throws IOException {
        FileRef ref = FileRef.of(sha256.digest(), size);
        target.complete(ref);
        return ref;
    }

    void abort() {
        target.abort();
    }
}
