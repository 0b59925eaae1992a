package dev.layerfold.storage.embedded;

import dev.layerfold.storage.metadata.MetadataStore;
import dev.layerfold.storage.metadata.MetadataStoreContract;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class SqliteMetadataStoreTest extends MetadataStoreContract {

    @TempDir
    Path dir;

    @Override
    protected MetadataStore newStore() throws Exception {
        return new SqliteMetadataStore(dir.resolve("metadata.db"));
    }

    @Override
    protected MetadataStore reopen() throws Exception {
        return new SqliteMetadataStore(dir.resolve("metadata.db"));
    }
}
