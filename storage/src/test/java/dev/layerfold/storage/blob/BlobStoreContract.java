package dev.layerfold.storage.blob;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layerfold.storage.Digest;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The {@link BlobStore} contract. An implementation's test extends this class, supplies
 * {@link #newStore()} and {@link #reopen()}, and runs every check here; add only what is specific
 * to the implementation (its layout, its failure modes) in the subclass.
 */
public abstract class BlobStoreContract {

    private static final int MiB = 1024 * 1024;

    /** The store under test, fresh for every test. */
    protected BlobStore store;

    /** A new, empty store. Called before every test. */
    protected abstract BlobStore newStore() throws Exception;

    /** A new instance over the same backing storage as the last {@link #newStore()}, as after a restart. */
    protected abstract BlobStore reopen() throws Exception;

    @BeforeEach
    void createStore() throws Exception {
        store = newStore();
    }

    @Test
    void blobIsInvisibleUntilPublished() throws Exception {
        byte[] data = "layer bytes".getBytes(UTF_8);
        Digest digest = Digest.sha256(data);
        String upload = newUploadId();
        store.startUpload(upload);
        store.append(upload, new ByteArrayInputStream(data));

        assertThat(store.size(digest)).isEmpty();
        assertThat(store.open(digest, 0, -1)).isEmpty();

        store.publish(upload, digest);

        assertThat(store.size(digest)).contains((long) data.length);
        assertThat(read(digest, 0, -1)).isEqualTo(data);
    }

    @Test
    void publishedUploadIsGone() throws Exception {
        String upload = newUploadId();
        store.startUpload(upload);
        byte[] data = "x".getBytes(UTF_8);
        store.append(upload, new ByteArrayInputStream(data));
        store.publish(upload, Digest.sha256(data));

        assertThatThrownBy(() -> store.uploadSize(upload)).isInstanceOf(UploadNotFoundException.class);
        assertThatThrownBy(() -> store.append(upload, new ByteArrayInputStream(data)))
                .isInstanceOf(UploadNotFoundException.class);
    }

    @Test
    void publishingAnExistingDigestKeepsTheBlobAndDiscardsTheUpload() throws Exception {
        byte[] data = "same layer pushed twice".getBytes(UTF_8);
        Digest digest = publish(data);

        String second = newUploadId();
        store.startUpload(second);
        store.append(second, new ByteArrayInputStream(data));
        store.publish(second, digest);

        assertThat(read(digest, 0, -1)).isEqualTo(data);
        assertThatThrownBy(() -> store.uploadSize(second)).isInstanceOf(UploadNotFoundException.class);
    }

    @Test
    @Timeout(30)
    void concurrentPublishersOfOneDigestAllSucceedAndReadersNeverSeeAPartialBlob() throws Exception {
        GeneratedContent content = new GeneratedContent(MiB, 7);
        byte[] data = content.slice(0, MiB);
        Digest digest = Digest.sha256(data);
        int publishers = 8;
        List<String> uploads = new ArrayList<>();
        for (int i = 0; i < publishers; i++) {
            String upload = newUploadId();
            store.startUpload(upload);
            store.append(upload, new ByteArrayInputStream(data));
            uploads.add(upload);
        }
        CyclicBarrier start = new CyclicBarrier(publishers);
        AtomicBoolean publishing = new AtomicBoolean(true);
        try (ExecutorService threads = Executors.newFixedThreadPool(publishers + 2)) {
            List<Future<?>> readers = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                readers.add(threads.submit(() -> {
                    do {
                        Optional<InputStream> blob = store.open(digest, 0, -1);
                        if (blob.isPresent()) {
                            try (InputStream in = blob.get()) {
                                assertThat(in.readAllBytes()).isEqualTo(data);
                            }
                        }
                    } while (publishing.get());
                    return null;
                }));
            }
            List<Future<?>> publishes = new ArrayList<>();
            for (String upload : uploads) {
                publishes.add(threads.submit(() -> {
                    start.await();
                    store.publish(upload, digest);
                    return null;
                }));
            }
            for (Future<?> publish : publishes) {
                publish.get(20, TimeUnit.SECONDS);
            }
            publishing.set(false);
            for (Future<?> reader : readers) {
                reader.get(20, TimeUnit.SECONDS);
            }
        }

        assertThat(read(digest, 0, -1)).isEqualTo(data);
        for (String upload : uploads) {
            assertThatThrownBy(() -> store.uploadSize(upload)).isInstanceOf(UploadNotFoundException.class);
        }
    }

    @Test
    void rangedReadReturnsExactlyTheRequestedBytes() throws Exception {
        Digest digest = publish("0123456789".getBytes(UTF_8));

        assertThat(read(digest, 2, 5)).isEqualTo("23456".getBytes(UTF_8));
        assertThat(read(digest, 0, 1)).isEqualTo("0".getBytes(UTF_8));
        assertThat(read(digest, 3, 0)).isEmpty();
    }

    @Test
    void negativeLengthReadsToTheEnd() throws Exception {
        Digest digest = publish("0123456789".getBytes(UTF_8));

        assertThat(read(digest, 7, -1)).isEqualTo("789".getBytes(UTF_8));
    }

    @Test
    void rangeReachingPastTheEndStopsAtTheEnd() throws Exception {
        Digest digest = publish("0123456789".getBytes(UTF_8));

        assertThat(read(digest, 8, 100)).isEqualTo("89".getBytes(UTF_8));
        assertThat(read(digest, 0, Long.MAX_VALUE)).isEqualTo("0123456789".getBytes(UTF_8));
    }

    @Test
    void offsetAtOrPastTheEndReadsNothing() throws Exception {
        Digest digest = publish("0123456789".getBytes(UTF_8));

        assertThat(read(digest, 10, -1)).isEmpty();
        assertThat(read(digest, 11, 5)).isEmpty();
    }

    @Test
    void unknownBlobHasNoSizeAndCannotBeOpened() throws Exception {
        Digest unknown = Digest.sha256("never pushed".getBytes(UTF_8));

        assertThat(store.size(unknown)).isEmpty();
        assertThat(store.open(unknown, 0, -1)).isEmpty();
        assertThat(store.delete(unknown)).isFalse();
    }

    @Test
    void deleteRemovesTheBlobAndSaysWhetherItExisted() throws Exception {
        Digest digest = publish("to be deleted".getBytes(UTF_8));

        assertThat(store.delete(digest)).isTrue();
        assertThat(store.size(digest)).isEmpty();
        assertThat(store.open(digest, 0, -1)).isEmpty();
        assertThat(store.delete(digest)).isFalse();
    }

    /** A web server opens a local file after the handler that asked for it returns: a delete in between must not leave it nothing to send. */
    @Test
    void aLocalFileHandedOutStaysReadableAfterItsBlobIsDeleted() throws Exception {
        byte[] data = "being sent while a dedup worker thins it".getBytes(UTF_8);
        Digest digest = publish(data);
        Optional<Path> file = store.localFile(digest);

        store.delete(digest);

        if (file.isPresent()) {
            assertThat(Files.readAllBytes(file.get())).isEqualTo(data);
        }
        assertThat(store.localFile(digest)).isEmpty();
    }

    @Test
    void deletedBlobCanBePublishedAgain() throws Exception {
        byte[] data = "comes back".getBytes(UTF_8);
        Digest digest = publish(data);
        store.delete(digest);

        publish(data);

        assertThat(read(digest, 0, -1)).isEqualTo(data);
    }

    @Test
    void blobsOfDifferentAlgorithmsAreDistinct() throws Exception {
        byte[] data = "hashed twice".getBytes(UTF_8);
        Digest sha256 = publish(data);
        Digest sha512 = Digest.of(Digest.Algorithm.SHA512, data);

        assertThat(store.size(sha512)).isEmpty();
        publish(data, sha512);
        store.delete(sha256);

        assertThat(read(sha512, 0, -1)).isEqualTo(data);
    }

    @Test
    void aListingGoesThroughEveryBlobInDigestOrderAPageAtATimeResumingAfterTheLastDigest() throws Exception {
        List<Digest> published = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            published.add(publish(("blob " + i).getBytes(UTF_8)));
        }
        published.add(publish("another algorithm".getBytes(UTF_8), Digest.of(Digest.Algorithm.SHA512, "x".getBytes(UTF_8))));
        String upload = newUploadId();
        store.startUpload(upload);
        store.append(upload, new ByteArrayInputStream("an upload is no blob".getBytes(UTF_8)));
        Instant before = Instant.now().minusSeconds(60);

        List<ListedBlob> listed = new ArrayList<>();
        Optional<Digest> after = Optional.empty();
        for (List<ListedBlob> page = store.list(after, 3); !page.isEmpty(); page = store.list(after, 3)) {
            assertThat(page.size()).isLessThanOrEqualTo(3);
            listed.addAll(page);
            after = Optional.of(page.getLast().digest());
        }

        assertThat(listed).extracting(ListedBlob::digest)
                .containsExactlyElementsOf(published.stream().sorted(Comparator.comparing(Digest::toString)).toList());
        assertThat(listed).allSatisfy(blob -> assertThat(blob.lastModified()).isAfter(before));
        store.delete(published.getFirst());
        assertThat(store.list(Optional.empty(), 100)).extracting(ListedBlob::digest).doesNotContain(published.getFirst());
    }

    @Test
    void unknownUploadIsReportedAsNotFound() {
        String unknown = newUploadId();
        Digest digest = Digest.sha256(new byte[0]);

        assertThatThrownBy(() -> store.append(unknown, new ByteArrayInputStream(new byte[1])))
                .isInstanceOf(UploadNotFoundException.class);
        assertThatThrownBy(() -> store.uploadSize(unknown)).isInstanceOf(UploadNotFoundException.class);
        assertThatThrownBy(() -> store.openUpload(unknown, 0)).isInstanceOf(UploadNotFoundException.class);
        assertThatThrownBy(() -> store.publish(unknown, digest)).isInstanceOf(UploadNotFoundException.class);
    }

    @Test
    void abortedUploadIsGoneAndAbortingAgainIsHarmless() throws Exception {
        String upload = newUploadId();
        store.startUpload(upload);
        store.append(upload, new ByteArrayInputStream("abandoned".getBytes(UTF_8)));

        store.abortUpload(upload);
        store.abortUpload(upload);
        store.abortUpload(newUploadId());

        assertThatThrownBy(() -> store.uploadSize(upload)).isInstanceOf(UploadNotFoundException.class);
        assertThatThrownBy(() -> store.publish(upload, Digest.sha256("abandoned".getBytes(UTF_8))))
                .isInstanceOf(UploadNotFoundException.class);
        assertThat(store.size(Digest.sha256("abandoned".getBytes(UTF_8)))).isEmpty();
    }

    @Test
    void uploadSizeCountsEveryAppend() throws Exception {
        String upload = newUploadId();
        store.startUpload(upload);
        assertThat(store.uploadSize(upload)).isZero();

        assertThat(store.append(upload, new ByteArrayInputStream(new byte[100]))).isEqualTo(100);
        assertThat(store.append(upload, new ByteArrayInputStream(new byte[0]))).isEqualTo(100);
        assertThat(store.append(upload, new ByteArrayInputStream(new byte[23]))).isEqualTo(123);

        assertThat(store.uploadSize(upload)).isEqualTo(123);
    }

    @Test
    void openUploadReadsFromTheGivenOffset() throws Exception {
        String upload = newUploadId();
        store.startUpload(upload);
        store.append(upload, new ByteArrayInputStream("first,".getBytes(UTF_8)));
        store.append(upload, new ByteArrayInputStream("second".getBytes(UTF_8)));

        try (InputStream whole = store.openUpload(upload, 0); InputStream tail = store.openUpload(upload, 6)) {
            assertThat(whole.readAllBytes()).isEqualTo("first,second".getBytes(UTF_8));
            assertThat(tail.readAllBytes()).isEqualTo("second".getBytes(UTF_8));
        }
    }

    @Test
    void failedAppendLeavesTheUploadAsItWas() throws Exception {
        String upload = newUploadId();
        store.startUpload(upload);
        store.append(upload, new ByteArrayInputStream("kept ".getBytes(UTF_8)));

        assertThatThrownBy(() -> store.append(upload, new BrokenStream(MiB))).isInstanceOf(IOException.class);

        assertThat(store.uploadSize(upload)).isEqualTo(5);
        store.append(upload, new ByteArrayInputStream("resumed".getBytes(UTF_8)));
        try (InputStream in = store.openUpload(upload, 0)) {
            assertThat(in.readAllBytes()).isEqualTo("kept resumed".getBytes(UTF_8));
        }
    }

    @Test
    @Timeout(60)
    void anUploadCheckedByTheStoreIsPublishedOnlyUnderItsOwnDigest() throws Exception {
        GeneratedContent content = new GeneratedContent(12L * MiB + 5, 11);
        Digest sha512 = sha512Of(content);
        Digest wrong = Digest.of(Digest.Algorithm.SHA512, "other bytes".getBytes(UTF_8));
        String mismatched = uploadInChunks(content);
        String matching = uploadInChunks(content);
        String tailOnly = newUploadId();
        store.startUpload(tailOnly);
        store.append(tailOnly, new ByteArrayInputStream("small".getBytes(UTF_8)));

        assertThat(store.publishIfDigest(mismatched, wrong)).contains(sha512);
        assertThat(store.size(wrong)).isEmpty();
        store.abortUpload(mismatched);
        assertThat(store.publishIfDigest(tailOnly, wrong)).contains(Digest.of(Digest.Algorithm.SHA512, "small".getBytes(UTF_8)));
        assertThat(store.publishIfDigest(matching, sha512)).isEmpty();

        assertThat(store.size(sha512)).contains(content.size());
        try (InputStream in = store.open(sha512, 0, -1).orElseThrow()) {
            assertThat(Digest.of(Digest.Algorithm.SHA512, in)).isEqualTo(sha512);
        }
    }

    @Test
    void anUploadClaimingABlobThatExistsIsCheckedAgainstItsOwnBytes() throws Exception {
        byte[] data = "the blob".getBytes(UTF_8);
        Digest digest = Digest.of(Digest.Algorithm.SHA512, data);
        String original = newUploadId();
        store.startUpload(original);
        store.append(original, new ByteArrayInputStream(data));
        store.publish(original, digest);
        String impostor = newUploadId();
        store.startUpload(impostor);
        store.append(impostor, new ByteArrayInputStream("not the blob".getBytes(UTF_8)));

        assertThat(store.publishIfDigest(impostor, digest)).isPresent();
    }

    private String uploadInChunks(GeneratedContent content) throws IOException {
        String upload = newUploadId();
        store.startUpload(upload);
        long chunk = 5L * MiB;
        for (long from = 0; from < content.size(); from += chunk) {
            store.append(upload, content.stream(from, Math.min(content.size(), from + chunk)));
        }
        return upload;
    }

    private static Digest sha512Of(GeneratedContent content) throws IOException {
        try (InputStream in = content.stream(0, content.size())) {
            return Digest.of(Digest.Algorithm.SHA512, in);
        }
    }

    @Test
    @Timeout(60)
    void streamsABlobLargerThanAnyBufferWithoutHoldingIt() throws Exception {
        long size = 64L * MiB;
        GeneratedContent content = new GeneratedContent(size, 42);
        Digest digest = content.sha256();
        String upload = newUploadId();
        store.startUpload(upload);
        long quarter = size / 4;
        for (long from = 0; from < size; from += quarter) {
            store.append(upload, content.stream(from, from + quarter));
        }
        store.publish(upload, digest);

        assertThat(store.size(digest)).contains(size);
        try (InputStream in = store.open(digest, 0, -1).orElseThrow()) {
            assertThat(GeneratedContent.sha256Of(in)).isEqualTo(digest);
        }
        long middle = 40L * MiB + 3;
        assertThat(read(digest, middle, 4096)).isEqualTo(content.slice(middle, 4096));
    }

    @Test
    void publishedBlobsAndUploadsSurviveARestart() throws Exception {
        byte[] data = "durable".getBytes(UTF_8);
        Digest digest = publish(data);
        String upload = newUploadId();
        store.startUpload(upload);
        store.append(upload, new ByteArrayInputStream("half".getBytes(UTF_8)));

        store = reopen();

        assertThat(read(digest, 0, -1)).isEqualTo(data);
        assertThat(store.uploadSize(upload)).isEqualTo(4);
        store.append(upload, new ByteArrayInputStream(" done".getBytes(UTF_8)));
        Digest finished = Digest.sha256("half done".getBytes(UTF_8));
        store.publish(upload, finished);
        assertThat(read(finished, 0, -1)).isEqualTo("half done".getBytes(UTF_8));
    }

    /** An id in the form the registry hands out. */
    protected static String newUploadId() {
        return UUID.randomUUID().toString();
    }

    protected Digest publish(byte[] data) throws IOException {
        return publish(data, Digest.sha256(data));
    }

    protected Digest publish(byte[] data, Digest digest) throws IOException {
        String upload = newUploadId();
        store.startUpload(upload);
        store.append(upload, new ByteArrayInputStream(data));
        store.publish(upload, digest);
        return digest;
    }

    protected byte[] read(Digest digest, long offset, long length) throws IOException {
        try (InputStream in = store.open(digest, offset, length).orElseThrow()) {
            return in.readAllBytes();
        }
    }

    /** A client that disconnects after sending some bytes. */
    private static final class BrokenStream extends InputStream {
        private long remaining;

        BrokenStream(long bytesBeforeFailure) {
            this.remaining = bytesBeforeFailure;
        }

        @Override
        public int read() throws IOException {
            if (remaining-- <= 0) {
                throw new IOException("connection reset by peer");
            }
            return 'x';
        }

        @Override
        public int read(byte[] buffer, int off, int len) throws IOException {
            if (remaining <= 0) {
                throw new IOException("connection reset by peer");
            }
            int count = (int) Math.min(len, remaining);
            remaining -= count;
            return count;
        }
    }
}
