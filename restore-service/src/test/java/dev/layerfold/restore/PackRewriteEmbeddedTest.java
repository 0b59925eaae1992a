package dev.layerfold.restore;

import dev.layerfold.storage.embedded.SqliteMetadataStore;
import dev.layerfold.storage.filesystem.FilesystemBlobStore;
import java.io.IOException;
import java.nio.file.Path;

/** Pack rewriting on the filesystem and SQLite. */
class PackRewriteEmbeddedTest extends PackRewriteTest {

    private SqliteMetadataStore store;

    @Override
    protected void openStores(Path dir) throws IOException {
        blobs = new FilesystemBlobStore(dir.resolve("data"));
        store = new SqliteMetadataStore(dir.resolve("metadata.db"));
        index = store.dedupIndex();
        gcIndex = store.gcIndex();
        metadata = store;
    }

    @Override
    protected void closeStores() {
        store.close();
    }
}
