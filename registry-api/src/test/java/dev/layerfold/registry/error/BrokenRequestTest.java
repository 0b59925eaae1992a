package dev.layerfold.registry.error;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.registry.RegistryHttpTest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Requests broken below the API (a body shorter than declared, broken chunked encoding, a method the
 * servlet container refuses) are still answered with the spec's {@code {"errors":[...]}}.
 */
class BrokenRequestTest extends RegistryHttpTest {

    @Test
    void bodyShorterThanItsContentLengthIsASpecError() throws Exception {
        String upload = startUpload();

        String answer = exchange("PATCH " + upload + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/octet-stream\r\n"
                + "Content-Length: 100\r\nConnection: close\r\n\r\n0123456789", true);

        assertSpecError(answer);
    }

    @Test
    void malformedChunkedEncodingIsASpecError() throws Exception {
        String upload = startUpload();

        String answer = exchange("PATCH " + upload + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/octet-stream\r\n"
                + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\nnot a chunk\r\n", true);

        assertSpecError(answer);
    }

    @Test
    void traceIsASpecError() throws Exception {
        String answer = exchange("TRACE /v2/ HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", false);

        assertThat(answer).startsWith("HTTP/1.1 405");
        assertSpecError(answer);
    }

    private String startUpload() throws Exception {
        HttpResponse<byte[]> started = request("POST", "/v2/" + uniqueRepository("broken") + "/blobs/uploads/").send();
        return started.headers().firstValue("Location").orElseThrow();
    }

    /** Sends raw bytes (then half-closes, if {@code endEarly}) and returns everything the server answered. */
    private String exchange(String raw, boolean endEarly) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("localhost", port), 5_000);
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(raw.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            if (endEarly) {
                socket.shutdownOutput();
            }
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private void assertSpecError(String answer) {
        String body = answer.substring(answer.indexOf("\r\n\r\n") + 4);
        if (answer.contains("Transfer-Encoding: chunked")) {
            body = body.substring(body.indexOf("\r\n") + 2, body.lastIndexOf("\r\n0\r\n"));
        }
        JsonNode json = this.json.readTree(body);
        assertThat(json.has("errors")).as(answer).isTrue();
        assertThat(json.get("errors").get(0).get("code").isString()).as(answer).isTrue();
        assertThat(json.get("errors").get(0).get("message").stringValue()).as(answer).isNotBlank();
    }
}
