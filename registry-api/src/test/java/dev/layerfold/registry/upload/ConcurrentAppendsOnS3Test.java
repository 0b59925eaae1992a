package dev.layerfold.registry.upload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layerfold.registry.api.MemoryBudget;
import dev.layerfold.registry.error.ErrorCode;
import dev.layerfold.registry.error.RegistryException;
import dev.layerfold.registry.gc.CollectorFence;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.blob.BlobContent;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.blob.GeneratedContent;
import dev.layerfold.storage.metadata.UploadState;
import dev.layerfold.storage.redis.RedisConnection;
import dev.layerfold.storage.redis.RedisMetadataStore;
import dev.layerfold.storage.s3.S3BlobStore;
import dev.layerfold.storage.s3.S3Bucket;
import dev.layerfold.storage.s3.S3Settings;
import dev.layerfold.storage.testserver.RedisServer;
import dev.layerfold.storage.testserver.S3Server;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.http.HttpStatus;

/**
 * Two registry instances (each with its own S3 client, Redis connection and running-hash memory,
 * sharing one bucket and one Redis, as two processes do) appending to one upload at once, as a buggy
 * or hostile client can make them. The interleaving that once published one writer's bytes under the
 * other's digest is forced step by step with latches:
 * <ol>
 *   <li>A has sent all its bytes but not yet saved the upload record;</li>
 *   <li>B does the same from the same starting state;</li>
 *   <li>A saves its record, then pauses before saving its hash state;</li>
 *   <li>B saves its record (overwriting A's) and its hash state;</li>
 *   <li>A saves its hash state: A's hash beside B's bytes.</li>
 * </ol>
 * Now B waits at step 2 for A's claim on the upload, renewed while A runs, and is refused before it
 * reads a byte.
 */
class ConcurrentAppendsOnS3Test {

    private static final int PART = S3Settings.MINIMUM_PART_SIZE;
    private static final RepositoryName REPOSITORY = RepositoryName.of("library/app");
    private static final long WAIT_SECONDS = 60;
    /** Short, so that B's wait for A's claim (renewed all along) ends soon. */
    private static final Duration CLAIM_LIFETIME = Duration.ofSeconds(2);

    private final String bucket = S3Server.shared().newBucket();
    private final String namespace = RedisServer.newNamespace();
    private final List<AutoCloseable> opened = new ArrayList<>();

    @AfterEach
    void closeInstances() throws Exception {
        for (AutoCloseable resource : opened.reversed()) {
            resource.close();
        }
    }

    @Test
    @Timeout(120)
    void ofTwoInstancesAppendingToOneUploadAtOnceOneIsRefusedAndTheBlobIsTheOther() throws Exception {
        GeneratedContent a = new GeneratedContent(PART + 1000, 1);
        GeneratedContent b = new GeneratedContent(PART + 1000, 2);
        CountDownLatch aAppended = new CountDownLatch(1);
        CountDownLatch aMayRecord = new CountDownLatch(1);
        UploadService instanceA = newInstance(aAppended, aMayRecord);
        UploadService instanceB = newInstance(new CountDownLatch(0), new CountDownLatch(0));
        String upload = instanceA.start(REPOSITORY);

        // One thread per request, as the two processes' servers have: the common pool may have one.
        ExecutorService requests = Executors.newCachedThreadPool();
        opened.add(requests::shutdownNow);
        HeldAtEnd bodyA = new HeldAtEnd(a.stream(0, a.size()));
        CompletableFuture<Long> appendA = CompletableFuture.supplyAsync(() -> append(instanceA, upload, bodyA), requests);
        await(bodyA.atEnd);
        HeldAtEnd bodyB = new HeldAtEnd(b.stream(0, b.size()));
        CompletableFuture<Long> appendB = CompletableFuture.supplyAsync(() -> append(instanceB, upload, bodyB), requests);
        CompletableFuture.anyOf(appendB.handle((size, failure) -> null), CompletableFuture.runAsync(() -> await(bodyB.atEnd), requests))
                .get(WAIT_SECONDS, TimeUnit.SECONDS);
        bodyA.mayEnd.countDown();
        await(aAppended);
        bodyB.mayEnd.countDown();
        Throwable refusedB = failureOf(appendB);
        aMayRecord.countDown();

        assertThat(appendA.get(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo(a.size());
        Digest published = newInstance(new CountDownLatch(0), new CountDownLatch(0))
                .complete(REPOSITORY, upload, List.of(a.sha256()), Optional.empty(), Optional.empty());
        try (InputStream in = newStore().open(published, 0, -1).orElseThrow()) {
            assertThat(GeneratedContent.sha256Of(in)).as("digest of the bytes published as " + published).isEqualTo(a.sha256());
        }
        assertThat(refusedB).isInstanceOfSatisfying(RegistryException.class, e -> {
            assertThat(e.status()).isEqualTo(HttpStatus.REQUESTED_RANGE_NOT_SATISFIABLE);
            assertThat(e.errors().getFirst().code()).isEqualTo(ErrorCode.BLOB_UPLOAD_INVALID);
            assertThat(e.getMessage()).contains("another request is writing to this upload");
        });
        assertThat(bodyB.read).as("bytes of B read").isZero();
    }

    @Test
    void anUploadClaimedByARequestWhoseProcessStoppedIsResumedOnceTheClaimLapses() throws Exception {
        UploadService instance = newInstance(new CountDownLatch(0), new CountDownLatch(0));
        String upload = instance.start(REPOSITORY);
        // What a request leaves behind when its process is killed between claiming and advancing.
        assertThat(newMetadata().claimUpload(upload, 0, "killed", Instant.now(), Instant.EPOCH)).isTrue();
        GeneratedContent content = new GeneratedContent(10, 3);

        assertThat(instance.append(REPOSITORY, upload, Optional.empty(), content.stream(0, 10))).isEqualTo(10);
        assertThat(instance.complete(REPOSITORY, upload, List.of(content.sha256()), Optional.empty(), Optional.empty()))
                .isEqualTo(content.sha256());
    }

    private static long append(UploadService instance, String upload, InputStream body) {
        try {
            return instance.append(REPOSITORY, upload, Optional.empty(), body);
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
    }

    private static Throwable failureOf(CompletableFuture<Long> future) throws Exception {
        try {
            future.get(WAIT_SECONDS, TimeUnit.SECONDS);
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("a step of the race never came");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * One registry instance. {@code appended} is counted down when an append has written its bytes
     * and record to the bucket, before its hash state is saved; it then waits for {@code mayRecord}.
     */
    private UploadService newInstance(CountDownLatch appended, CountDownLatch mayRecord) throws IOException {
        S3BlobStore blobs = newStore();
        UploadHasher hasher = new UploadHasher(blobs, new MemoryBudget(Long.MAX_VALUE)) {
            @Override
            Appended append(UploadState saved, long size, InputStream data, Set<Digest.Algorithm> closingWith)
                    throws IOException {
                Appended appendedNow = super.append(saved, size, data, closingWith);
                appended.countDown();
                await(mayRecord);
                return appendedNow;
            }
        };
        RedisMetadataStore metadata = newMetadata();
        return new UploadService(blobs, BlobContent.intact(blobs), metadata, hasher,
                new CollectorFence(metadata.gcIndex()), CLAIM_LIFETIME);
    }

    private RedisMetadataStore newMetadata() throws IOException {
        S3Bucket connection = connect();
        RedisMetadataStore metadata = new RedisMetadataStore(RedisConnection.open(RedisServer.shared().url(), false),
                connection, namespace);
        opened.add(metadata);
        return metadata;
    }

    private S3BlobStore newStore() {
        return new S3BlobStore(connect(), PART, false);
    }

    private S3Bucket connect() {
        S3Server server = S3Server.shared();
        S3Bucket connection = S3Bucket.connect(new S3Settings(server.endpoint(), server.region(), bucket, true,
                server.accessKey(), server.secretKey(), false, PART));
        opened.add(connection::close);
        return connection;
    }

    /** A request body whose client sent every byte but has not ended the request yet. */
    private static final class HeldAtEnd extends FilterInputStream {
        final CountDownLatch atEnd = new CountDownLatch(1);
        final CountDownLatch mayEnd = new CountDownLatch(1);
        long read;

        HeldAtEnd(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = super.read(buffer, offset, length);
            if (n < 0) {
                atEnd.countDown();
                await(mayEnd);
            } else {
                read += n;
            }
            return n;
        }
    }
}
