package dev.layerfold.storage.metadata;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A {@link MetadataStore} made of its four parts, each a class of its own in a backend: this class
 * answers the whole interface by handing each call to the part that owns it, so a backend only says
 * which parts it has and how it closes.
 */
public abstract class PartitionedMetadataStore implements MetadataStore {

    protected abstract RepositoryIndex repositoryIndex();

    protected abstract TagStore tagStore();

    protected abstract ReferrerIndex referrerIndex();

    protected abstract UploadStateStore uploadStateStore();

    @Override
    public void linkBlob(RepositoryName repository, Digest blob) throws IOException {
        repositoryIndex().linkBlob(repository, blob);
    }

    @Override
    public boolean hasBlob(RepositoryName repository, Digest blob) throws IOException {
        return repositoryIndex().hasBlob(repository, blob);
    }

    @Override
    public boolean unlinkBlob(RepositoryName repository, Digest blob) throws IOException {
        return repositoryIndex().unlinkBlob(repository, blob);
    }

    @Override
    public void linkManifest(RepositoryName repository, ManifestRecord manifest) throws IOException {
        repositoryIndex().linkManifest(repository, manifest);
    }

    @Override
    public Optional<ManifestRecord> manifest(RepositoryName repository, Digest digest) throws IOException {
        return repositoryIndex().manifest(repository, digest);
    }

    @Override
    public boolean unlinkManifest(RepositoryName repository, Digest digest) throws IOException {
        return repositoryIndex().unlinkManifest(repository, digest);
    }

    @Override
    public boolean repositoryExists(RepositoryName repository) throws IOException {
        return repositoryIndex().repositoryExists(repository);
    }

    @Override
    public List<ManifestRecord> manifests(RepositoryName repository, Optional<Digest> after, int limit) throws IOException {
        return repositoryIndex().manifests(repository, after, limit);
    }

    @Override
    public List<RepositoryName> repositories(Optional<RepositoryName> after, int limit) throws IOException {
        return repositoryIndex().repositories(after, limit);
    }

    @Override
    public void putTag(RepositoryName repository, String tag, Digest manifest) throws IOException {
        tagStore().putTag(repository, tag, manifest);
    }

    @Override
    public Optional<Digest> tag(RepositoryName repository, String tag) throws IOException {
        return tagStore().tag(repository, tag);
    }

    @Override
    public boolean deleteTag(RepositoryName repository, String tag) throws IOException {
        return tagStore().deleteTag(repository, tag);
    }

    @Override
    public List<String> tags(RepositoryName repository, Optional<String> after, int limit) throws IOException {
        return tagStore().tags(repository, after, limit);
    }

    @Override
    public void addReferrer(RepositoryName repository, Digest subject, Descriptor referrer) throws IOException {
        referrerIndex().addReferrer(repository, subject, referrer);
    }

    @Override
    public List<Descriptor> referrers(RepositoryName repository, Digest subject) throws IOException {
        return referrerIndex().referrers(repository, subject);
    }

    @Override
    public boolean removeReferrer(RepositoryName repository, Digest subject, Digest referrer) throws IOException {
        return referrerIndex().removeReferrer(repository, subject, referrer);
    }

    @Override
    public void createUpload(UploadState state) throws IOException {
        uploadStateStore().createUpload(state);
    }

    @Override
    public Optional<UploadState> upload(String uploadId) throws IOException {
        return uploadStateStore().upload(uploadId);
    }

    @Override
    public boolean claimUpload(String uploadId, long expectedSize, String claim, Instant now, Instant expiredBefore)
            throws IOException {
        return uploadStateStore().claimUpload(uploadId, expectedSize, claim, now, expiredBefore);
    }

    @Override
    public boolean renewClaim(String uploadId, String claim, Instant now) throws IOException {
        return uploadStateStore().renewClaim(uploadId, claim, now);
    }

    @Override
    public void releaseUpload(String uploadId, String claim) throws IOException {
        uploadStateStore().releaseUpload(uploadId, claim);
    }

    @Override
    public boolean advanceUpload(UploadState next, long expectedSize, String claim) throws IOException {
        return uploadStateStore().advanceUpload(next, expectedSize, claim);
    }

    @Override
    public boolean deleteUpload(String uploadId) throws IOException {
        return uploadStateStore().deleteUpload(uploadId);
    }

    @Override
    public List<UploadState> uploadsIdleSince(Instant cutoff) throws IOException {
        return uploadStateStore().uploadsIdleSince(cutoff);
    }
}
