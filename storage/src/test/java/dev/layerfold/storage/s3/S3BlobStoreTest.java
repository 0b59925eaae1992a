package dev.layerfold.storage.s3;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.blob.BlobStoreContract;
import dev.layerfold.storage.blob.GeneratedContent;
import dev.layerfold.storage.blob.UploadNotFoundException;
import dev.layerfold.storage.testserver.S3Server;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.model.S3Object;

/** The blob contract on a real S3 server, plus what only the S3 layout has: parts, tails, pointers. */
class S3BlobStoreTest extends BlobStoreContract {

    private static final int PART = S3Settings.MINIMUM_PART_SIZE;

    private final List<S3Bucket> opened = new ArrayList<>();
    private String bucketName;

    @Override
    protected BlobStore newStore() {
        bucketName = S3Server.shared().newBucket();
        return reopen();
    }

    @Override
    protected S3BlobStore reopen() {
        return new S3BlobStore(connect(), PART, true);
    }

    private S3Bucket connect() {
        S3Server server = S3Server.shared();
        S3Bucket bucket = S3Bucket.connect(new S3Settings(server.endpoint(), server.region(), bucketName, true,
                server.accessKey(), server.secretKey(), true, PART));
        opened.add(bucket);
        return bucket;
    }

    @AfterEach
    void closeClients() {
        opened.forEach(S3Bucket::close);
    }

    @Test
    void chunksSmallerThanAPartAppendedThroughDifferentProcessesFormOneBlob() throws Exception {
        GeneratedContent content = new GeneratedContent(PART + 12345, 3);
        String upload = newUploadId();
        store.startUpload(upload);
        long chunk = PART / 3 + 7; // never a whole part, so every append reads the tail another one left
        for (long from = 0; from < content.size(); from += chunk) {
            S3BlobStore process = reopen();
            long to = Math.min(content.size(), from + chunk);
            assertThat(process.append(upload, content.stream(from, to))).isEqualTo(to);
        }
        assertThat(reopen().uploadSize(upload)).isEqualTo(content.size());

        reopen().publish(upload, content.sha256());

        try (InputStream in = store.open(content.sha256(), 0, -1).orElseThrow()) {
            assertThat(GeneratedContent.sha256Of(in)).isEqualTo(content.sha256());
        }
    }

    @Test
    void appendOfManyPartsReusesEachPartBufferOnlyAfterItsUpload() throws Exception {
        // More parts than are uploaded at once, so later parts fill the buffers of earlier ones.
        GeneratedContent content = new GeneratedContent(6L * PART + 777, 29);
        String upload = newUploadId();
        store.startUpload(upload);

        assertThat(store.append(upload, content.stream(0, content.size()))).isEqualTo(content.size());
        store.publish(upload, content.sha256());

        try (InputStream in = store.open(content.sha256(), 0, -1).orElseThrow()) {
            assertThat(GeneratedContent.sha256Of(in)).isEqualTo(content.sha256());
        }
    }

    @Test
    void largeBlobIsCompletedInPlaceAndItsKeyOnlyPointsAtTheBody() throws Exception {
        GeneratedContent content = new GeneratedContent(PART + 10, 5);
        Digest digest = content.sha256();
        String upload = newUploadId();
        store.startUpload(upload);
        store.append(upload, content.stream(0, content.size()));

        store.publish(upload, digest);

        var pointer = connect().head(BlobKeys.blob(digest)).orElseThrow();
        assertThat(pointer.contentLength()).isZero();
        assertThat(pointer.metadata()).containsEntry(S3BlobStore.BODY, BlobKeys.body(upload))
                .containsEntry(S3BlobStore.SIZE, Long.toString(content.size()));
        assertThat(keys()).containsExactlyInAnyOrder(BlobKeys.blob(digest), BlobKeys.body(upload));
    }

    @Test
    void publishingALargeUploadOfAnExistingBlobLeavesOnlyTheFirstBody() throws Exception {
        GeneratedContent content = new GeneratedContent(PART + 1, 9);
        List<String> uploads = List.of(newUploadId(), newUploadId());
        for (String upload : uploads) {
            store.startUpload(upload);
            store.append(upload, content.stream(0, content.size()));
        }
        store.publish(uploads.get(0), content.sha256());
        reopen().publish(uploads.get(1), content.sha256());

        assertThat(keys()).containsExactlyInAnyOrder(BlobKeys.blob(content.sha256()), BlobKeys.body(uploads.get(0)));
    }

    @Test
    void deletingALargeBlobDeletesItsBody() throws Exception {
        GeneratedContent content = new GeneratedContent(PART + 1, 11);
        String upload = newUploadId();
        store.startUpload(upload);
        store.append(upload, content.stream(0, content.size()));
        store.publish(upload, content.sha256());

        assertThat(store.delete(content.sha256())).isTrue();

        assertThat(keys()).isEmpty();
    }

    @Test
    void abortingAMultipartUploadLeavesNothingInTheBucket() throws Exception {
        GeneratedContent content = new GeneratedContent(PART + 1, 13);
        String upload = newUploadId();
        store.startUpload(upload);
        store.append(upload, content.stream(0, content.size()));

        store.abortUpload(upload);

        assertThat(keys()).isEmpty();
        S3Bucket bucket = connect();
        assertThat(bucket.client().listMultipartUploads(request -> request.bucket(bucket.name())).uploads()).isEmpty();
    }

    @Test
    void idleUploadsAreAbortedAndActiveOnesKept() throws Exception {
        String idle = newUploadId();
        store.startUpload(idle);
        store.append(idle, new ByteArrayInputStream("left behind".getBytes(UTF_8)));
        // S3 keeps modification times to the second: start the active upload in a later second.
        Instant cutoff = Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
        Thread.sleep(Duration.between(Instant.now(), cutoff).plusMillis(50));
        String active = newUploadId();
        store.startUpload(active);

        assertThat(((S3BlobStore) store).abortUploadsIdleSince(cutoff)).containsExactly(idle);

        assertThat(store.uploadSize(active)).isZero();
        assertThatThrownBy(() -> store.uploadSize(idle)).isInstanceOf(UploadNotFoundException.class);
    }

    @Test
    void multipartUploadOfAnAppendThatDiedBeforeItsRecordIsAborted() throws Exception {
        String upload = newUploadId();
        store.startUpload(upload);
        S3Bucket bucket = connect();
        // What an append killed after starting the multipart upload, before writing the record, leaves.
        bucket.client().createMultipartUpload(request -> request.bucket(bucket.name()).key(BlobKeys.body(upload)));
        assertThat(bucket.client().listMultipartUploads(request -> request.bucket(bucket.name())).uploads()).hasSize(1);

        ((S3BlobStore) store).abortUploadsIdleSince(Instant.now().plusSeconds(3600));

        assertThat(bucket.client().listMultipartUploads(request -> request.bucket(bucket.name())).uploads()).isEmpty();
    }

    @Test
    void appendFailingAfterAFullPartKeepsTheUploadAsItWas() throws Exception {
        GeneratedContent content = new GeneratedContent(PART + 100, 17);
        String upload = newUploadId();
        store.startUpload(upload);
        store.append(upload, content.stream(0, 100));
        InputStream failsAfterAPart = new SequenceInputStream(content.stream(100, PART + 100), new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("connection reset by peer");
            }
        });

        assertThatThrownBy(() -> store.append(upload, failsAfterAPart)).isInstanceOf(IOException.class);

        assertThat(store.uploadSize(upload)).isEqualTo(100);
        store.append(upload, content.stream(100, content.size()));
        store.publish(upload, content.sha256());
        try (InputStream in = store.open(content.sha256(), 0, -1).orElseThrow()) {
            assertThat(GeneratedContent.sha256Of(in)).isEqualTo(content.sha256());
        }
    }

    @Test
    void openUploadRefusesBytesAlreadyInMultipartParts() throws Exception {
        GeneratedContent content = new GeneratedContent(PART + 4, 19);
        String upload = newUploadId();
        store.startUpload(upload);
        store.append(upload, content.stream(0, content.size()));

        assertThatThrownBy(() -> store.openUpload(upload, 0)).isInstanceOf(IOException.class)
                .hasMessageContaining("hash state");
        try (InputStream tail = store.openUpload(upload, PART + 1)) {
            assertThat(tail.readAllBytes()).isEqualTo(content.slice(PART + 1, 3));
        }
    }

    @Test
    void blobDeletedAndPushedAgainByAnotherProcessIsReadFromItsNewBody() throws Exception {
        GeneratedContent content = new GeneratedContent(PART + 3, 23);
        Digest digest = content.sha256();
        publishLarge(store, content);
        read(digest, 0, 1); // this process now knows where the body is
        S3BlobStore other = reopen();

        other.delete(digest);
        assertThat(store.open(digest, 0, -1)).isEmpty();
        publishLarge(other, content);

        assertThat(read(digest, PART, 3)).isEqualTo(content.slice(PART, 3));
    }

    private static void publishLarge(BlobStore target, GeneratedContent content) throws IOException {
        String upload = newUploadId();
        target.startUpload(upload);
        target.append(upload, content.stream(0, content.size()));
        target.publish(upload, content.sha256());
    }

    @Test
    void presignedUrlServesTheBlobWithoutCredentials() throws Exception {
        byte[] data = "fetched straight from the bucket".getBytes(UTF_8);
        Digest digest = publish(data);

        URI url = store.directUrl(digest, Duration.ofMinutes(5)).orElseThrow();

        try (HttpClient http = HttpClient.newHttpClient()) {
            HttpResponse<byte[]> response = http.send(HttpRequest.newBuilder(url).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).isEqualTo(data);
        }
    }

    @Test
    void directUrlIsOffUnlessConfigured() throws Exception {
        Digest digest = publish("streamed".getBytes(UTF_8));

        assertThat(new S3BlobStore(connect(), PART, false).directUrl(digest, Duration.ofMinutes(5))).isEmpty();
    }

    private List<String> keys() {
        List<String> keys = new ArrayList<>();
        for (S3Object object : connect().list("")) {
            keys.add(object.key());
        }
        return keys;
    }
}
