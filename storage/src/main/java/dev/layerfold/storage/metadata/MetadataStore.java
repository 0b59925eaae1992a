package dev.layerfold.storage.metadata;

/**
 * Everything the registry knows besides blob bytes. One implementation per backend (embedded, Redis)
 * implements all four parts; the contract suites check each part separately.
 */
public interface MetadataStore extends RepositoryIndex, TagStore, ReferrerIndex, UploadStateStore, AutoCloseable {
    @Override
    void close();
}
