package dev.layerfold.registry.upload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.registry.RegistryHttpTest;
import dev.layerfold.storage.Digest;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class BlobUploadTest extends RegistryHttpTest {

    private static final byte[] BLOB = "a blob pushed in pieces".getBytes(StandardCharsets.US_ASCII);

    @Test
    void postOpensASessionWithLocationAndRange() throws Exception {
        String repository = uniqueRepository("uploads");

        HttpResponse<byte[]> response = request("POST", "/v2/" + repository + "/blobs/uploads/").send();

        assertThat(response.statusCode()).isEqualTo(202);
        String uuid = response.headers().firstValue("Docker-Upload-UUID").orElseThrow();
        assertThat(response.headers().firstValue("Location")).hasValue("/v2/" + repository + "/blobs/uploads/" + uuid);
        assertThat(response.headers().firstValue("Range")).hasValue("0-0");
    }

    @Test
    void anUploadOpenedWithDigestAlgorithmSha512ClosesUnderItsSha512() throws Exception {
        String repository = uniqueRepository("uploads");
        Digest sha512 = Digest.of(Digest.Algorithm.SHA512, BLOB);
        String location = request("POST", "/v2/" + repository + "/blobs/uploads/?digest-algorithm=sha512").send()
                .headers().firstValue("Location").orElseThrow();

        HttpResponse<byte[]> patch = request("PATCH", location).header("Content-Type", "application/octet-stream").body(BLOB).send();
        HttpResponse<byte[]> put = request("PUT", location + "?digest=" + sha512).send();
        HttpResponse<byte[]> unknown = request("POST", "/v2/" + repository + "/blobs/uploads/?digest-algorithm=md5").send();

        assertThat(patch.statusCode()).isEqualTo(202);
        assertThat(put.statusCode()).as(text(put)).isEqualTo(201);
        assertThat(request("HEAD", "/v2/" + repository + "/blobs/" + sha512).send().statusCode()).isEqualTo(200);
        assertThat(unknown.statusCode()).isEqualTo(400);
        assertThat(errorCode(unknown)).isEqualTo("DIGEST_INVALID");
    }

    @Test
    void postThenPutPushesAWholeBlob() throws Exception {
        String repository = uniqueRepository("uploads");
        Digest digest = Digest.sha256(BLOB);

        HttpResponse<byte[]> put = request("PUT", startUpload(repository) + "?digest=" + digest)
                .header("Content-Type", "application/octet-stream").body(BLOB).send();

        assertThat(put.statusCode()).as(text(put)).isEqualTo(201);
        assertThat(put.headers().firstValue("Location")).hasValue("/v2/" + repository + "/blobs/" + digest);
        assertThat(put.headers().firstValue("Docker-Content-Digest")).hasValue(digest.toString());
        assertThat(request("GET", "/v2/" + repository + "/blobs/" + digest).send().body()).isEqualTo(BLOB);
    }

    @Test
    void singlePostWithDigestPushesAWholeBlob() throws Exception {
        String repository = uniqueRepository("uploads");
        Digest digest = Digest.sha256(BLOB);

        HttpResponse<byte[]> response = request("POST", "/v2/" + repository + "/blobs/uploads/?digest=" + digest)
                .body(BLOB).send();

        assertThat(response.statusCode()).isEqualTo(201);
        assertThat(response.headers().firstValue("Location")).hasValue("/v2/" + repository + "/blobs/" + digest);
    }

    @Test
    void chunksWithContentRangeAppendInOrderAndCloseWithAFinalChunk() throws Exception {
        String repository = uniqueRepository("uploads");
        String location = startUpload(repository);

        HttpResponse<byte[]> first = patch(location, Arrays.copyOfRange(BLOB, 0, 10), "0-9");
        HttpResponse<byte[]> second = patch(location, Arrays.copyOfRange(BLOB, 10, 15), "10-14");
        HttpResponse<byte[]> close = request("PUT", location + "?digest=" + Digest.sha256(BLOB))
                .header("Content-Range", "15-" + (BLOB.length - 1))
                .body(Arrays.copyOfRange(BLOB, 15, BLOB.length)).send();

        assertThat(first.statusCode()).isEqualTo(202);
        assertThat(first.headers().firstValue("Range")).hasValue("0-9");
        assertThat(second.headers().firstValue("Range")).hasValue("0-14");
        assertThat(close.statusCode()).as(text(close)).isEqualTo(201);
        assertThat(request("GET", "/v2/" + repository + "/blobs/" + Digest.sha256(BLOB)).send().body()).isEqualTo(BLOB);
    }

    @Test
    void streamedPatchWithoutContentRangeThenEmptyPutCompletes() throws Exception {
        String repository = uniqueRepository("uploads");
        String location = startUpload(repository);

        HttpResponse<byte[]> patch = request("PATCH", location).body(BLOB).send();
        HttpResponse<byte[]> close = request("PUT", location + "?digest=" + Digest.sha256(BLOB)).send();

        assertThat(patch.statusCode()).isEqualTo(202);
        assertThat(patch.headers().firstValue("Range")).hasValue("0-" + (BLOB.length - 1));
        assertThat(close.statusCode()).as(text(close)).isEqualTo(201);
    }

    @Test
    void chunkedUploadOutOfOrderGets416WithTheCurrentRange() throws Exception {
        String repository = uniqueRepository("uploads");
        String location = startUpload(repository);
        patch(location, Arrays.copyOfRange(BLOB, 0, 10), "0-9");

        HttpResponse<byte[]> gap = patch(location, Arrays.copyOfRange(BLOB, 12, 15), "12-14");
        HttpResponse<byte[]> overlap = patch(location, Arrays.copyOfRange(BLOB, 5, 15), "5-14");

        assertThat(gap.statusCode()).isEqualTo(416);
        assertThat(gap.headers().firstValue("Range")).hasValue("0-9");
        assertThat(gap.headers().firstValue("Location")).hasValue(location);
        assertThat(errorCode(gap)).isEqualTo("BLOB_UPLOAD_INVALID");
        assertThat(overlap.statusCode()).isEqualTo(416);
        assertThat(status(location).headers().firstValue("Range")).hasValue("0-9");
    }

    @Test
    void malformedContentRangeGets416() throws Exception {
        String location = startUpload(uniqueRepository("uploads"));

        HttpResponse<byte[]> response = patch(location, BLOB, "bytes=zero-ten");

        assertThat(response.statusCode()).isEqualTo(416);
    }

    @Test
    void chunkLongerThanItsContentRangeIsRefusedAndNotKept() throws Exception {
        String location = startUpload(uniqueRepository("uploads"));

        HttpResponse<byte[]> response = patch(location, BLOB, "0-4");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(errorCode(response)).isEqualTo("SIZE_INVALID");
        assertThat(status(location).headers().firstValue("Range")).hasValue("0-0");
    }

    @Test
    void bodiesSentWithFormOrMultipartContentTypesAreStoredAsRawBytes() throws Exception {
        String repository = uniqueRepository("uploads");
        byte[] formLike = "a=1&b=2".getBytes(StandardCharsets.US_ASCII);
        byte[] multipartLike = "--x\r\nnot really a part\r\n--x--".getBytes(StandardCharsets.US_ASCII);

        HttpResponse<byte[]> form = request("PUT", startUpload(repository) + "?digest=" + Digest.sha256(formLike))
                .header("Content-Type", "application/x-www-form-urlencoded").body(formLike).send();
        HttpResponse<byte[]> multipart = request("PUT", startUpload(repository) + "?digest=" + Digest.sha256(multipartLike))
                .header("Content-Type", "multipart/form-data; boundary=x").body(multipartLike).send();

        assertThat(form.statusCode()).as(text(form)).isEqualTo(201);
        assertThat(multipart.statusCode()).as(text(multipart)).isEqualTo(201);
    }

    @Test
    void statusReportsTheBytesReceived() throws Exception {
        String location = startUpload(uniqueRepository("uploads"));
        patch(location, Arrays.copyOfRange(BLOB, 0, 7), "0-6");

        HttpResponse<byte[]> response = status(location);

        assertThat(response.statusCode()).isEqualTo(204);
        assertThat(response.headers().firstValue("Range")).hasValue("0-6");
        assertThat(response.headers().firstValue("Location")).hasValue(location);
    }

    @Test
    void closingUploadWithWrongDigestStoresNothing() throws Exception {
        String repository = uniqueRepository("uploads");
        String location = startUpload(repository);
        patch(location, BLOB, "0-" + (BLOB.length - 1));
        Digest claimed = Digest.sha256("something else".getBytes(StandardCharsets.US_ASCII));

        HttpResponse<byte[]> close = request("PUT", location + "?digest=" + claimed).send();

        assertThat(close.statusCode()).isEqualTo(400);
        assertThat(errorCode(close)).isEqualTo("DIGEST_INVALID");
        assertThat(request("HEAD", "/v2/" + repository + "/blobs/" + claimed).send().statusCode()).isEqualTo(404);
        assertThat(request("HEAD", "/v2/" + repository + "/blobs/" + Digest.sha256(BLOB)).send().statusCode()).isEqualTo(404);
        assertThat(status(location).statusCode()).isEqualTo(404);
    }

    @Test
    void sha512DigestIsVerifiedAtClose() throws Exception {
        String repository = uniqueRepository("uploads");
        Digest sha512 = Digest.of(Digest.Algorithm.SHA512, BLOB);

        HttpResponse<byte[]> response = request("PUT", startUpload(repository) + "?digest=" + sha512).body(BLOB).send();

        assertThat(response.statusCode()).as(text(response)).isEqualTo(201);
        assertThat(request("GET", "/v2/" + repository + "/blobs/" + sha512).send().body()).isEqualTo(BLOB);
    }

    @Test
    void closingWithoutDigestIsRefusedAndKeepsTheUpload() throws Exception {
        String location = startUpload(uniqueRepository("uploads"));
        patch(location, BLOB, "0-" + (BLOB.length - 1));

        HttpResponse<byte[]> response = request("PUT", location).send();

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(errorCode(response)).isEqualTo("DIGEST_INVALID");
        assertThat(status(location).statusCode()).isEqualTo(204);
    }

    @Test
    void cancelledUploadIsUnknownAfterwards() throws Exception {
        String location = startUpload(uniqueRepository("uploads"));

        HttpResponse<byte[]> cancel = request("DELETE", location).send();
        HttpResponse<byte[]> after = request("PATCH", location).body(BLOB).send();

        assertThat(cancel.statusCode()).isEqualTo(204);
        assertThat(after.statusCode()).isEqualTo(404);
        assertThat(errorCode(after)).isEqualTo("BLOB_UPLOAD_UNKNOWN");
    }

    @Test
    void uploadIsUnknownThroughAnotherRepository() throws Exception {
        String location = startUpload(uniqueRepository("uploads"));
        String uuid = location.substring(location.lastIndexOf('/') + 1);

        HttpResponse<byte[]> response = status("/v2/" + uniqueRepository("other") + "/blobs/uploads/" + uuid);

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(errorCode(response)).isEqualTo("BLOB_UPLOAD_UNKNOWN");
    }

    @Test
    void hostileUploadIdIsUnknown() throws Exception {
        HttpResponse<byte[]> response = status("/v2/" + uniqueRepository("uploads") + "/blobs/uploads/..%2F..%2Fetc");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(errorCode(response)).isEqualTo("BLOB_UPLOAD_UNKNOWN");
    }

    @Test
    void bodyCutShortOfItsContentLengthPublishesNothing() throws Exception {
        String repository = uniqueRepository("uploads");
        Digest digest = Digest.sha256(BLOB);

        try (Socket socket = new Socket("localhost", port)) {
            OutputStream out = socket.getOutputStream();
            out.write(("POST /v2/" + repository + "/blobs/uploads/?digest=" + digest + " HTTP/1.1\r\n"
                    + "Host: localhost\r\nContent-Type: application/octet-stream\r\n"
                    + "Content-Length: " + (BLOB.length * 2) + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(BLOB);
            out.flush();
            socket.shutdownOutput();
            InputStream in = socket.getInputStream();
            in.readAllBytes();
        }

        assertThat(request("HEAD", "/v2/" + repository + "/blobs/" + digest).send().statusCode()).isEqualTo(404);
    }

    @Test
    void patchCutShortKeepsTheUploadAtItsPreviousSize() throws Exception {
        String repository = uniqueRepository("uploads");
        String location = startUpload(repository);
        patch(location, Arrays.copyOfRange(BLOB, 0, 10), "0-9");

        try (Socket socket = new Socket("localhost", port)) {
            OutputStream out = socket.getOutputStream();
            out.write(("PATCH " + location + " HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(Arrays.copyOfRange(BLOB, 10, 15));
            out.flush();
            socket.shutdownOutput();
            socket.getInputStream().readAllBytes();
        }
        HttpResponse<byte[]> resumed = patch(location, Arrays.copyOfRange(BLOB, 10, BLOB.length), "10-" + (BLOB.length - 1));
        HttpResponse<byte[]> close = request("PUT", location + "?digest=" + Digest.sha256(BLOB)).send();

        assertThat(resumed.statusCode()).as(text(resumed)).isEqualTo(202);
        assertThat(close.statusCode()).as(text(close)).isEqualTo(201);
    }

    private String startUpload(String repository) throws Exception {
        HttpResponse<byte[]> response = request("POST", "/v2/" + repository + "/blobs/uploads/").send();
        assertThat(response.statusCode()).isEqualTo(202);
        return response.headers().firstValue("Location").orElseThrow();
    }

    private HttpResponse<byte[]> patch(String location, byte[] chunk, String contentRange) throws Exception {
        return request("PATCH", location).header("Content-Type", "application/octet-stream")
                .header("Content-Range", contentRange).body(chunk).send();
    }

    private HttpResponse<byte[]> status(String location) throws Exception {
        return request("GET", location).send();
    }
}
