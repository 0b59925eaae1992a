package dev.layerfold.dedup.codec.tar;

import dev.layerfold.dedup.codec.FileRef;
import dev.layerfold.dedup.codec.FileSink;

import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** A body being streamed to the sink while its sha256 and size are computed. */
final class OpenBody {

    private final FileSink.Body target;
    private final MessageDigest sha256;
    private long size;

    OpenBody(FileSink sink) throws IOException {
        this.target = sink.begin();
        try {
            this.sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
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
