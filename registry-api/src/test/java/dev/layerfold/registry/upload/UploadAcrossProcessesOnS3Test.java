package dev.layerfold.registry.upload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layerfold.registry.api.MemoryBudget;
import dev.layerfold.registry.error.ErrorCode;
import dev.layerfold.registry.error.RegistryException;
import dev.layerfold.registry.gc.CollectorFence;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.blob.BlobContent;
import dev.layerfold.storage.blob.GeneratedContent;
import dev.layerfold.storage.embedded.SqliteMetadataStore;
import dev.layerfold.storage.s3.S3BlobStore;
import dev.layerfold.storage.s3.S3Bucket;
import dev.layerfold.storage.s3.S3Settings;
import dev.layerfold.storage.testserver.S3Server;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Uploads to S3, which cannot read back an unfinished upload's parts, continued by registry processes
 * that never saw their beginning: each "process" has its own S3 client, metadata connection and an
 * empty running-hash memory, and they share only the bucket and the metadata database.
 */
class UploadAcrossProcessesOnS3Test {

    private static final MemoryBudget UNLIMITED = new MemoryBudget(Long.MAX_VALUE);

    private static final int PART = S3Settings.MINIMUM_PART_SIZE;
    private static final RepositoryName REPOSITORY = RepositoryName.of("library/app");

    @TempDir
    Path metadataDirectory;

    private final List<AutoCloseable> opened = new ArrayList<>();
    private String bucket;

    @BeforeEach
    void createBucket() {
        bucket = S3Server.shared().newBucket();
    }

    @AfterEach
    void closeProcesses() throws Exception {
        for (AutoCloseable resource : opened) {
            resource.close();
        }
    }

    @Test
    void chunksSentToDifferentProcessesCloseUnderTheirSha256() throws Exception {
        GeneratedContent content = new GeneratedContent(2L * PART + 4321, 7);
        long firstEnd = PART + 100; // at least one whole part, which S3 cannot read back
        long secondEnd = 2L * PART + 200;

        String upload = newProcess().start(REPOSITORY);
        newProcess().append(REPOSITORY, upload, Optional.empty(), content.stream(0, firstEnd));
        newProcess().append(REPOSITORY, upload, Optional.empty(), content.stream(firstEnd, secondEnd));
        Digest published = newProcess().complete(REPOSITORY, upload, List.of(content.sha256()), Optional.empty(),
                Optional.of(content.stream(secondEnd, content.size())));

        assertThat(published).isEqualTo(content.sha256());
        try (InputStream in = newStore().open(published, 0, -1).orElseThrow()) {
            assertThat(GeneratedContent.sha256Of(in)).isEqualTo(content.sha256());
        }
    }

    @Test
    void processThatHeldNoHashClosesAnUploadWithoutAFinalChunk() throws Exception {
        GeneratedContent content = new GeneratedContent(PART + 1, 8);
        String upload = newProcess().start(REPOSITORY);
        newProcess().append(REPOSITORY, upload, Optional.empty(), content.stream(0, content.size()));

        Digest published = newProcess().complete(REPOSITORY, upload, List.of(content.sha256()), Optional.empty(),
                Optional.empty());

        assertThat(published).isEqualTo(content.sha256());
    }

    @Test
    void aChunkedUploadClosedWithASha512IsCheckedByTheStoreAsItIsPublished() throws Exception {
        GeneratedContent content = new GeneratedContent(2L * PART + 9, 9);
        long firstEnd = PART + 3;
        String upload = newProcess().start(REPOSITORY);
        newProcess().append(REPOSITORY, upload, Optional.empty(), content.stream(0, firstEnd));
        newProcess().append(REPOSITORY, upload, Optional.empty(), content.stream(firstEnd, content.size()));

        Digest published = newProcess().complete(REPOSITORY, upload, List.of(sha512(content)), Optional.empty(),
                Optional.empty());

        assertThat(published).isEqualTo(sha512(content));
        assertThat(newStore().size(published)).contains(content.size());
    }

    @Test
    void aChunkedUploadClosedWithAWrongSha512IsRefusedAndDiscarded() throws Exception {
        GeneratedContent content = new GeneratedContent(PART + 1, 19);
        Digest wrong = sha512(new GeneratedContent(PART + 1, 20));
        String upload = newProcess().start(REPOSITORY);
        newProcess().append(REPOSITORY, upload, Optional.empty(), content.stream(0, content.size()));

        assertThatThrownBy(() -> newProcess().complete(REPOSITORY, upload, List.of(wrong), Optional.empty(), Optional.empty()))
                .isInstanceOfSatisfying(RegistryException.class, e -> assertThat(e.errors().getFirst().code())
                        .isEqualTo(ErrorCode.DIGEST_INVALID))
                .hasMessageContaining(sha512(content).toString());
        assertThat(newStore().size(wrong)).isEmpty();
        assertThatThrownBy(() -> newProcess().size(REPOSITORY, upload))
                .isInstanceOfSatisfying(RegistryException.class, e -> assertThat(e.errors().getFirst().code())
                        .isEqualTo(ErrorCode.BLOB_UPLOAD_UNKNOWN));
    }

    @Test
    void anUploadOpenedForSha512IsHashedInItFromTheFirstByteAcrossProcesses() throws Exception {
        GeneratedContent content = new GeneratedContent(2L * PART + 77, 12);
        Digest sha512 = sha512(content);
        long firstEnd = PART + 100;

        String upload = newProcess().start(REPOSITORY, Digest.Algorithm.SHA512);
        newProcess().append(REPOSITORY, upload, Optional.empty(), content.stream(0, firstEnd));
        newProcess().append(REPOSITORY, upload, Optional.empty(), content.stream(firstEnd, content.size()));
        Digest published = newProcess().complete(REPOSITORY, upload, List.of(sha512), Optional.empty(), Optional.empty());

        assertThat(published).isEqualTo(sha512);
        assertThat(newStore().size(sha512)).contains(content.size());
    }

    @Test
    void blobSentInOneRequestIsVerifiedUnderItsSha512() throws Exception {
        GeneratedContent content = new GeneratedContent(PART + 1, 10);
        Digest sha512 = sha512(content);

        Digest published = newProcess().pushWhole(REPOSITORY, sha512, content.stream(0, content.size()));

        assertThat(published).isEqualTo(sha512);
        assertThat(newStore().size(sha512)).contains(content.size());
    }

    @Test
    void uploadWhoseHashStateWasNeverSavedIsRefusedAsInvalid() throws Exception {
        GeneratedContent content = new GeneratedContent(PART + 1, 11);
        String upload = newProcess().start(REPOSITORY);
        // Bytes that reached the store without their hash state being saved (an older version wrote them).
        newStore().append(upload, content.stream(0, content.size()));

        assertThatThrownBy(() -> newProcess().complete(REPOSITORY, upload, List.of(content.sha256()),
                Optional.empty(), Optional.empty()))
                .isInstanceOfSatisfying(RegistryException.class, e -> assertThat(e.errors().getFirst().code())
                        .isEqualTo(ErrorCode.BLOB_UPLOAD_INVALID))
                .hasMessageContaining("cannot read an unfinished upload back");
    }

    /** A registry process as far as uploads are concerned: nothing in memory, everything shared on disk. */
    private UploadService newProcess() throws IOException {
        S3BlobStore blobs = newStore();
        SqliteMetadataStore metadata = new SqliteMetadataStore(metadataDirectory.resolve("metadata.db"));
        opened.add(metadata);
        return new UploadService(blobs, BlobContent.intact(blobs), metadata, new UploadHasher(blobs, UNLIMITED),
                new CollectorFence(metadata.gcIndex()));
    }

    private S3BlobStore newStore() {
        S3Server server = S3Server.shared();
        S3Bucket connection = S3Bucket.connect(new S3Settings(server.endpoint(), server.region(), bucket, true,
                server.accessKey(), server.secretKey(), false, PART));
        opened.add(connection::close);
        return new S3BlobStore(connection, PART, false);
    }

    private static Digest sha512(GeneratedContent content) throws IOException {
        MessageDigest sha512 = Digest.Algorithm.SHA512.newMessageDigest();
        try (InputStream in = content.stream(0, content.size())) {
            byte[] buffer = new byte[64 * 1024];
            for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
                sha512.update(buffer, 0, read);
            }
        }
        return Digest.fromBytes(Digest.Algorithm.SHA512, sha512.digest());
    }
}
