package dev.layerfold.storage.embedded;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.metadata.Descriptor;
import dev.layerfold.storage.metadata.ManifestRecord;
import dev.layerfold.storage.metadata.MetadataStore;
import dev.layerfold.storage.metadata.ReferrerIndex;
import dev.layerfold.storage.metadata.RepositoryIndex;
import dev.layerfold.storage.metadata.TagStore;
import dev.layerfold.storage.metadata.UploadState;
import dev.layerfold.storage.metadata.UploadStateStore;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Metadata in one SQLite file, for a single registry process or several on one host.
 * Every acknowledged write is on disk; reopening the file finds everything again.
 * Upload timestamps are kept to the millisecond.
 */
public final class SqliteMetadataStore implements MetadataStore {

    private final SqliteDatabase db;
    private final RepositoryIndex repositories;
    private final TagStore tags;
    private final ReferrerIndex referrers;
    private final UploadStateStore uploads;

    private SqliteMetadataStore(SqliteDatabase db) {
        this.db = db;
        this.repositories = new SqliteRepositoryIndex(db);
        this.tags = new SqliteTagStore(db);
        this.referrers = new SqliteReferrerIndex(db);
        this.uploads = new SqliteUploadStateStore(db);
    }

    /** Opens (creating if needed) the database file and its schema. */
    public SqliteMetadataStore(Path dbFile) throws IOException {
        this(SqliteDatabase.open(dbFile));
    }

    @Override
    public void linkBlob(RepositoryName repository, Digest blob) throws IOException {
        repositories.linkBlob(repository, blob);
    }

    @Override
    public boolean hasBlob(RepositoryName repository, Digest blob) throws IOException {
        return repositories.hasBlob(repository, blob);
    }

    @Override
    public boolean unlinkBlob(RepositoryName repository, Digest blob) throws IOException {
        return repositories.unlinkBlob(repository, blob);
    }

    @Override
    public void linkManifest(RepositoryName repository, ManifestRecord manifest) throws IOException {
        repositories.linkManifest(repository, manifest);
    }

    @Override
    public Optional<ManifestRecord> manifest(RepositoryName repository, Digest digest) throws IOException {
        return repositories.manifest(repository, digest);
    }

    @Override
    public boolean unlinkManifest(RepositoryName repository, Digest digest) throws IOException {
        return repositories.unlinkManifest(repository, digest);
    }

    @Override
    public boolean repositoryExists(RepositoryName repository) throws IOException {
        return repositories.repositoryExists(repository);
    }

    @Override
    public List<RepositoryName> repositories(Optional<RepositoryName> after, int limit) throws IOException {
        return repositories.repositories(after, limit);
    }

    @Override
    public void putTag(RepositoryName repository, String tag, Digest manifest) throws IOException {
        tags.putTag(repository, tag, manifest);
    }

    @Override
    public Optional<Digest> tag(RepositoryName repository, String tag) throws IOException {
        return tags.tag(repository, tag);
    }

    @Override
    public boolean deleteTag(RepositoryName repository, String tag) throws IOException {
        return tags.deleteTag(repository, tag);
    }

    @Override
    public List<String> tags(RepositoryName repository, Optional<String> after, int limit) throws IOException {
        return tags.tags(repository, after, limit);
    }

    @Override
    public void addReferrer(RepositoryName repository, Digest subject, Descriptor referrer) throws IOException {
        referrers.addReferrer(repository, subject, referrer);
    }

    @Override
    public List<Descriptor> referrers(RepositoryName repository, Digest subject) throws IOException {
        return referrers.referrers(repository, subject);
    }

    @Override
    public boolean removeReferrer(RepositoryName repository, Digest subject, Digest referrer) throws IOException {
        return referrers.removeReferrer(repository, subject, referrer);
    }

    @Override
    public void createUpload(UploadState state) throws IOException {
        uploads.createUpload(state);
    }

    @Override
    public Optional<UploadState> upload(String uploadId) throws IOException {
        return uploads.upload(uploadId);
    }

    @Override
    public boolean advanceUpload(UploadState next, long expectedSize) throws IOException {
        return uploads.advanceUpload(next, expectedSize);
    }

    @Override
    public boolean deleteUpload(String uploadId) throws IOException {
        return uploads.deleteUpload(uploadId);
    }

    @Override
    public List<UploadState> uploadsIdleSince(Instant cutoff) throws IOException {
        return uploads.uploadsIdleSince(cutoff);
    }

    @Override
    public void close() {
        db.close();
    }
}
