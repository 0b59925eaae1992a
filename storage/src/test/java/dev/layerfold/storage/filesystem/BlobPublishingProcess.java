package dev.layerfold.storage.filesystem;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.blob.GeneratedContent;
import java.nio.file.Path;
import java.util.UUID;

/** Child process for the kill -9 test: publishes blobs forever, printing each digest after publish returned. */
public final class BlobPublishingProcess {

    static final int BLOB_SIZE = 256 * 1024;

    private BlobPublishingProcess() {
    }

    public static void main(String[] args) throws Exception {
        FilesystemBlobStore store = new FilesystemBlobStore(Path.of(args[0]));
        for (long seed = 0; ; seed++) {
            GeneratedContent content = new GeneratedContent(BLOB_SIZE, seed);
            Digest digest = content.sha256();
            String upload = UUID.randomUUID().toString();
            store.startUpload(upload);
            for (int from = 0; from < BLOB_SIZE; from += BLOB_SIZE / 4) {
                store.append(upload, content.stream(from, from + BLOB_SIZE / 4));
            }
            store.publish(upload, digest);
            System.out.println(digest);
            System.out.flush();
        }
    }
}
