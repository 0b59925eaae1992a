package dev.layerfold.storage.filesystem;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.blob.BlobStoreContract;
import dev.layerfold.storage.blob.GeneratedContent;
import dev.layerfold.storage.blob.UploadNotFoundException;
import dev.layerfold.storage.crash.KillNine;
import java.io.ByteArrayInputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.io.InputStream;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FilesystemBlobStoreTest extends BlobStoreContract {

    @TempDir
    Path root;

    @Override
    protected BlobStore newStore() throws Exception {
        return new FilesystemBlobStore(root);
    }

    @Override
    protected BlobStore reopen() throws Exception {
        return new FilesystemBlobStore(root);
    }

    @Test
    void blobsAreFannedOutByTheFirstTwoHexDigits() throws Exception {
        Digest digest = publish("laid out".getBytes(UTF_8));

        assertThat(root.resolve("blobs/sha256").resolve(digest.hex().substring(0, 2)).resolve(digest.hex()))
                .hasContent("laid out");
    }

    @Test
    void localFileOfAPublishedBlobHoldsExactlyItsBytes() throws Exception {
        Digest digest = publish("sent by the kernel".getBytes(UTF_8));

        assertThat(store.localFile(digest)).hasValueSatisfying(file -> assertThat(file).hasContent("sent by the kernel"));
        assertThat(store.localFile(Digest.sha256("never pushed".getBytes(UTF_8)))).isEmpty();
    }

    @Test
    void aSendfileLinkGoesAfterItsLifetimeAndReleasesADeletedBlob() throws Exception {
        FilesystemBlobStore shortLived = new FilesystemBlobStore(root, Duration.ofMillis(200));
        Digest digest = publish("thinned while sent".getBytes(UTF_8));
        Path link = shortLived.localFile(digest).orElseThrow();
        shortLived.delete(digest);

        assertThat(link).hasContent("thinned while sent");
        waitUntilGone(link);
    }

    @Test
    void linksLeftByADeadProcessAreRemovedByTheNextStoreOnTheDirectory() throws Exception {
        Digest digest = publish("left behind".getBytes(UTF_8));
        Path sendfile = root.resolve("sendfile");
        Path stale = sendfile.resolve((System.currentTimeMillis() - Duration.ofHours(1).toMillis()) + "-dead");
        Files.createLink(stale, root.resolve("blobs/sha256").resolve(digest.hex().substring(0, 2)).resolve(digest.hex()));

        new FilesystemBlobStore(root);

        waitUntilGone(stale);
        assertThat(store.size(digest)).as("the blob itself").isPresent();
    }

    private static void waitUntilGone(Path file) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (Files.exists(file) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(file).doesNotExist();
    }

    @Test
    void blobsAcknowledgedBeforeAKillDashNineAreWholeAndNoPartialBlobIsVisible() throws Exception {
        Path killed = root.resolve("killed");

        List<String> acknowledged = KillNine.killAfter(20, BlobPublishingProcess.class, root, killed.toString());

        BlobStore restarted = new FilesystemBlobStore(killed);
        for (String digest : acknowledged) {
            assertThat(restarted.size(Digest.parse(digest))).contains((long) BlobPublishingProcess.BLOB_SIZE);
        }
        try (Stream<Path> files = Files.walk(killed.resolve("blobs"))) {
            for (Path blob : files.filter(Files::isRegularFile).toList()) {
                try (InputStream in = Files.newInputStream(blob)) {
                    assertThat(GeneratedContent.sha256Of(in).hex()).as("content of %s", blob)
                            .isEqualTo(blob.getFileName().toString());
                }
            }
        }
    }

    @Test
    void readerOfADeletedBlobKeepsStreamingTheBytesItStartedWith() throws Exception {
        byte[] data = new GeneratedContent(1 << 20, 3).slice(0, 1 << 20);
        Digest digest = publish(data);

        try (InputStream in = store.open(digest, 0, -1).orElseThrow()) {
            byte[] head = in.readNBytes(1000);
            assertThat(store.delete(digest)).isTrue();
            assertThat(head).isEqualTo(Arrays.copyOf(data, 1000));
            assertThat(in.readAllBytes()).isEqualTo(Arrays.copyOfRange(data, 1000, data.length));
        }
    }

    @Test
    void uploadLeftOverByACrashMidPublishIsNeverABlob() throws Exception {
        byte[] data = "crashed before the rename".getBytes(UTF_8);
        Digest digest = Digest.sha256(data);
        Files.write(root.resolve("uploads").resolve(digest.hex()), data);

        BlobStore restarted = new FilesystemBlobStore(root);

        assertThat(restarted.size(digest)).isEmpty();
        assertThat(restarted.open(digest, 0, -1)).isEmpty();
    }

    @Test
    void uploadsNeverAppearUnderTheBlobTree() throws Exception {
        String upload = newUploadId();
        store.startUpload(upload);
        store.append(upload, new ByteArrayInputStream(new byte[1000]));

        try (Stream<Path> files = Files.walk(root.resolve("blobs"))) {
            assertThat(files.filter(Files::isRegularFile)).isEmpty();
        }
    }

    @Test
    void hostileUploadIdsAreRejectedAndTouchNothingOutsideTheStore() throws Exception {
        Files.writeString(root.resolve("victim"), "untouched");
        for (String hostile : new String[] {"../victim", "..", ".", "a/../../victim", "/etc/passwd", "", ".hidden",
                "x".repeat(129), "nul\0byte"}) {
            assertThatThrownBy(() -> store.startUpload(hostile)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("invalid upload id");
            assertThatThrownBy(() -> store.append(hostile, new ByteArrayInputStream(new byte[1])))
                    .isInstanceOf(UploadNotFoundException.class);
            assertThatThrownBy(() -> store.uploadSize(hostile)).isInstanceOf(UploadNotFoundException.class);
            assertThatThrownBy(() -> store.publish(hostile, Digest.sha256(new byte[0])))
                    .isInstanceOf(UploadNotFoundException.class);
            store.abortUpload(hostile);
        }

        assertThat(root.resolve("victim")).hasContent("untouched");
    }

    @Test
    void abortUploadsIdleSinceRemovesOnlyUploadsUntouchedSinceTheCutoff() throws Exception {
        String idle = newUploadId();
        store.startUpload(idle);
        store.append(idle, new ByteArrayInputStream(new byte[10]));
        Files.setLastModifiedTime(root.resolve("uploads").resolve(idle), FileTime.from(Instant.now().minus(Duration.ofDays(2))));
        String active = newUploadId();
        store.startUpload(active);

        List<String> aborted = ((FilesystemBlobStore) store).abortUploadsIdleSince(Instant.now().minus(Duration.ofDays(1)));

        assertThat(aborted).containsExactly(idle);
        assertThatThrownBy(() -> store.uploadSize(idle)).isInstanceOf(UploadNotFoundException.class);
        assertThat(store.uploadSize(active)).isZero();
    }

    @Test
    void startingAnExistingUploadFails() throws Exception {
        String upload = newUploadId();
        store.startUpload(upload);
        store.append(upload, new ByteArrayInputStream(new byte[3]));

        assertThatThrownBy(() -> store.startUpload(upload)).isInstanceOf(FileAlreadyExistsException.class);
        assertThat(store.uploadSize(upload)).isEqualTo(3);
    }
}
