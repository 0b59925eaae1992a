package dev.layerfold.storage.embedded;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Stores opened on one database file, as several processes on a host open it; closed together. */
final class SqliteStoresOnOneFile implements AutoCloseable {

    private final Path file;
    private final List<SqliteMetadataStore> opened = new ArrayList<>();

    SqliteStoresOnOneFile(Path file) {
        this.file = file;
    }

    SqliteMetadataStore open() throws Exception {
        SqliteMetadataStore store = new SqliteMetadataStore(file);
        opened.add(store);
        return store;
    }

    @Override
    public void close() {
        opened.forEach(SqliteMetadataStore::close);
    }
}
