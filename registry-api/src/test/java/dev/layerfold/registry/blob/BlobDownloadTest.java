package dev.layerfold.registry.blob;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.registry.RegistryHttpTest;
import dev.layerfold.storage.Digest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class BlobDownloadTest extends RegistryHttpTest {

    private static final byte[] CONTENT = "0123456789abcdefghij".getBytes(StandardCharsets.US_ASCII);

    @Test
    void headDescribesTheBlobWithoutABody() throws Exception {
        String repository = uniqueRepository("blobs");
        Digest digest = pushBlob(repository, CONTENT);

        HttpResponse<byte[]> response = request("HEAD", "/v2/" + repository + "/blobs/" + digest).send();

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Length")).hasValue("20");
        assertThat(response.headers().firstValue("Docker-Content-Digest")).hasValue(digest.toString());
        assertThat(response.headers().firstValue("ETag")).hasValue("\"" + digest + "\"");
        assertThat(response.body()).isEmpty();
    }

    @Test
    void getReturnsTheBytesAsOctetStream() throws Exception {
        String repository = uniqueRepository("blobs");
        Digest digest = pushBlob(repository, CONTENT);

        HttpResponse<byte[]> response = request("GET", "/v2/" + repository + "/blobs/" + digest).send();

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/octet-stream");
        assertThat(response.body()).isEqualTo(CONTENT);
    }

    @Test
    void rangeReadsReturnPartialContentWithContentRange() throws Exception {
        String repository = uniqueRepository("blobs");
        Digest digest = pushBlob(repository, CONTENT);
        String path = "/v2/" + repository + "/blobs/" + digest;

        HttpResponse<byte[]> middle = request("GET", path).header("Range", "bytes=5-9").send();
        HttpResponse<byte[]> tail = request("GET", path).header("Range", "bytes=15-").send();
        HttpResponse<byte[]> suffix = request("GET", path).header("Range", "bytes=-3").send();
        HttpResponse<byte[]> clamped = request("GET", path).header("Range", "bytes=18-100").send();

        assertThat(middle.statusCode()).isEqualTo(206);
        assertThat(middle.headers().firstValue("Content-Range")).hasValue("bytes 5-9/20");
        assertThat(new String(middle.body(), StandardCharsets.US_ASCII)).isEqualTo("56789");
        assertThat(new String(tail.body(), StandardCharsets.US_ASCII)).isEqualTo("fghij");
        assertThat(new String(suffix.body(), StandardCharsets.US_ASCII)).isEqualTo("hij");
        assertThat(clamped.headers().firstValue("Content-Range")).hasValue("bytes 18-19/20");
    }

    @Test
    void conditionalGetWithTheCurrentEtagIsNotModified() throws Exception {
        String repository = uniqueRepository("blobs");
        Digest digest = pushBlob(repository, CONTENT);

        HttpResponse<byte[]> response = request("GET", "/v2/" + repository + "/blobs/" + digest)
                .header("If-None-Match", "\"" + digest + "\"").send();

        assertThat(response.statusCode()).isEqualTo(304);
        assertThat(response.body()).isEmpty();
    }

    @Test
    void rangeIsServedOnlyWhileIfRangeNamesTheBlobsEtag() throws Exception {
        String repository = uniqueRepository("blobs");
        Digest digest = pushBlob(repository, CONTENT);
        String path = "/v2/" + repository + "/blobs/" + digest;

        HttpResponse<byte[]> matching = request("GET", path).header("Range", "bytes=5-9")
                .header("If-Range", "\"" + digest + "\"").send();
        HttpResponse<byte[]> otherTag = request("GET", path).header("Range", "bytes=5-9")
                .header("If-Range", "\"sha256:0000\"").send();
        HttpResponse<byte[]> date = request("GET", path).header("Range", "bytes=5-9")
                .header("If-Range", "Sat, 01 Jan 2000 00:00:00 GMT").send();

        assertThat(matching.statusCode()).isEqualTo(206);
        assertThat(otherTag.statusCode()).isEqualTo(200);
        assertThat(otherTag.body()).isEqualTo(CONTENT);
        assertThat(otherTag.headers().firstValue("Content-Range")).isEmpty();
        assertThat(date.statusCode()).isEqualTo(200);
    }

    @Test
    void rangeBeyondTheEndIsNotSatisfiable() throws Exception {
        String repository = uniqueRepository("blobs");
        Digest digest = pushBlob(repository, CONTENT);

        HttpResponse<byte[]> response = request("GET", "/v2/" + repository + "/blobs/" + digest)
                .header("Range", "bytes=20-30").send();

        assertThat(response.statusCode()).isEqualTo(416);
        assertThat(response.headers().firstValue("Content-Range")).hasValue("bytes */20");
    }

    @Test
    void blobPushedToAnotherRepositoryIsUnknownHere() throws Exception {
        Digest digest = pushBlob(uniqueRepository("owner"), CONTENT);

        HttpResponse<byte[]> response = request("GET", "/v2/" + uniqueRepository("stranger") + "/blobs/" + digest).send();

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(errorCode(response)).isEqualTo("BLOB_UNKNOWN");
    }

    @Test
    void deletingUnlinksTheBlobFromTheRepositoryOnly() throws Exception {
        String repository = uniqueRepository("blobs");
        String other = uniqueRepository("blobs");
        Digest digest = pushBlob(repository, CONTENT);
        pushBlob(other, CONTENT);

        HttpResponse<byte[]> deleted = request("DELETE", "/v2/" + repository + "/blobs/" + digest).send();
        HttpResponse<byte[]> again = request("DELETE", "/v2/" + repository + "/blobs/" + digest).send();

        assertThat(deleted.statusCode()).isEqualTo(202);
        assertThat(again.statusCode()).isEqualTo(404);
        assertThat(request("HEAD", "/v2/" + repository + "/blobs/" + digest).send().statusCode()).isEqualTo(404);
        assertThat(request("HEAD", "/v2/" + other + "/blobs/" + digest).send().statusCode()).isEqualTo(200);
    }

    @Test
    void largeBlobStreamsBackIntact() throws Exception {
        String repository = uniqueRepository("blobs");
        byte[] large = new byte[3 * 1024 * 1024 + 17];
        new java.util.Random(7).nextBytes(large);
        Digest digest = pushBlob(repository, large);

        HttpResponse<byte[]> response = request("GET", "/v2/" + repository + "/blobs/" + digest).send();

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(Digest.sha256(response.body())).isEqualTo(digest);
    }

    @Test
    void rangeOfALargeBlobIsExactlyThoseBytes() throws Exception {
        String repository = uniqueRepository("blobs");
        byte[] large = new byte[1024 * 1024];
        new java.util.Random(11).nextBytes(large);
        Digest digest = pushBlob(repository, large);

        HttpResponse<byte[]> response = request("GET", "/v2/" + repository + "/blobs/" + digest)
                .header("Range", "bytes=100000-899999").send();

        assertThat(response.statusCode()).isEqualTo(206);
        assertThat(response.headers().firstValue("Content-Range")).hasValue("bytes 100000-899999/1048576");
        assertThat(response.body()).isEqualTo(java.util.Arrays.copyOfRange(large, 100000, 900000));
    }
}
