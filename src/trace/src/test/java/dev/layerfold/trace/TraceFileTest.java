package dev.layerfold.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TraceFileTest {

    /** Two records as the published IBM traces have them: more fields, no leading slash, out of order. */
    private static final String IBM = """
            [{"host": "dc2ba5b4", "http.request.duration": 0.88, "http.request.method": "GET",
              "http.request.remoteaddr": "0ee76ffa", "http.request.uri": "v2/b7c6f27a/ab1b4c4c/blobs/sha256:f1bd",
              "http.request.useragent": "docker/1.12.1 go/go1.6.3", "http.response.status": 200,
              "http.response.written": 2346, "id": "5b9b5a4b5a", "timestamp": "2017-06-20T02:41:18.106Z"},
             {"http.request.method": "GET", "http.request.remoteaddr": "0ee76ffa",
              "http.request.uri": "v2/b7c6f27a/ab1b4c4c/manifests/latest", "http.response.written": 1024,
              "timestamp": "2017-06-20T02:41:17.001Z"},
             {"http.request.method": "HEAD", "timestamp": "2017-06-20T02:41:19.000Z"}]
            """;

    @Test
    void ibmRecordsAreReadInTimeOrderAndNameTheirTargets() {
        List<TraceRecord> records = TraceFile.read(new ByteArrayInputStream(IBM.getBytes(StandardCharsets.UTF_8)));

        assertThat(records).hasSize(2);
        assertThat(records.get(0).target()).contains(new TraceRecord.Target("b7c6f27a/ab1b4c4c", true, "latest"));
        assertThat(records.get(1).target()).contains(new TraceRecord.Target("b7c6f27a/ab1b4c4c", false, "sha256:f1bd"));
        assertThat(records.get(1).written()).isEqualTo(2346);
        assertThat(records.get(1).remoteAddr()).isEqualTo("0ee76ffa");
    }

    @Test
    void writtenRecordsReadBackTheSame() {
        List<TraceRecord> records = List.of(new TraceRecord("PUT", "/v2/a/blobs/uploads/u1?digest=sha256:aa", "10.0.0.1:1",
                77, Instant.parse("2026-01-01T00:00:00.5Z")));
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        TraceFile.write(records, out);

        assertThat(TraceFile.read(new ByteArrayInputStream(out.toByteArray()))).isEqualTo(records);
    }
}
