package dev.layerfold.benchmark.auth;

import dev.layerfold.benchmark.Benchmark;
import dev.layerfold.benchmark.BenchmarkReport;
import dev.layerfold.benchmark.WorkDirectory;
import dev.layerfold.e2e.blob.BlobClient;
import dev.layerfold.e2e.process.LayerfoldProcess;
import dev.layerfold.e2e.process.RegistryProcess;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.security.crypto.bcrypt.BCrypt;

/**
 * What sign-in costs a small-blob GET: Layerfold with token authentication (a bearer token from its
 * own token endpoint, as clients send it) against Layerfold open, both started here, same blobs, same
 * client, rounds alternating which goes first. The target is under 5% more latency: a token is verified
 * once, then its grants come from a cache.
 */
public final class AuthBenchmark implements Benchmark {

    private static final String SUITE = "auth";
    private static final String HEAP = "1g";
    private static final String REPOSITORY = "bench/auth";
    private static final int BLOBS = 250;
    private static final int BLOB_SIZE = 4 << 10;
    private static final int WARMUP_ROUNDS = 2;
    private static final int MEASURED_ROUNDS = 8;
    private static final Pattern TOKEN = Pattern.compile("\"token\"\\s*:\\s*\"([^\"]+)\"");

    @Override
    public String name() {
        return SUITE;
    }

    @Override
    public void run(BenchmarkReport report) throws Exception {
        Path work = Files.createTempDirectory("layerfold-auth-benchmark-");
        try {
            measure(work, report);
        } finally {
            WorkDirectory.deleteRecursively(work);
        }
    }

    private void measure(Path work, BenchmarkReport report) throws Exception {
        Path htpasswd = Files.writeString(work.resolve("htpasswd"), "bench:" + BCrypt.hashpw("bench-secret", BCrypt.gensalt(10)) + "\n");
        Map<String, String> auth = Map.of("layerfold.auth.mode", "token", "layerfold.auth.htpasswd", htpasswd.toString());
        List<byte[]> blobs = new ArrayList<>();
        Random random = new Random(7);
        for (int i = 0; i < BLOBS; i++) {
            byte[] blob = new byte[BLOB_SIZE];
            random.nextBytes(blob);
            blobs.add(blob);
        }
        List<String> digests = blobs.stream().map(AuthBenchmark::sha256).toList();
        Path logs = work.resolve("logs");
        try (RegistryProcess open = LayerfoldProcess.start(HEAP, work.resolve("open"), logs);
             RegistryProcess signedIn = LayerfoldProcess.start(HEAP, work.resolve("auth"), logs, List.of(), auth);
             BlobClient openClient = new BlobClient(open.baseUri());
             BlobClient tokenClient = new BlobClient(signedIn.baseUri(), Optional.of("Bearer " + token(signedIn.baseUri())))) {
            for (int i = 0; i < BLOBS; i++) {
                openClient.pushMonolithic(REPOSITORY, digests.get(i), BLOB_SIZE, new ByteArrayInputStream(blobs.get(i)));
                tokenClient.pushMonolithic(REPOSITORY, digests.get(i), BLOB_SIZE, new ByteArrayInputStream(blobs.get(i)));
            }
            List<Double> openLatencies = new ArrayList<>();
            List<Double> authLatencies = new ArrayList<>();
            for (int round = 0; round < WARMUP_ROUNDS + MEASURED_ROUNDS; round++) {
                boolean counted = round >= WARMUP_ROUNDS;
                boolean openFirst = round % 2 == 0;
                getAll(openFirst ? openClient : tokenClient, digests, counted ? (openFirst ? openLatencies : authLatencies) : null);
                getAll(openFirst ? tokenClient : openClient, digests, counted ? (openFirst ? authLatencies : openLatencies) : null);
                System.out.println((counted ? "measured" : "warm-up") + " round " + (round + 1));
            }
            report.compare(SUITE, "small-blob GET latency, bearer token vs open", "ms",
                    authLatencies.stream().mapToDouble(Double::doubleValue).toArray(),
                    openLatencies.stream().mapToDouble(Double::doubleValue).toArray(), "layerfold without auth", false);
        }
    }

    private static void getAll(BlobClient client, List<String> digests, List<Double> latencies) throws IOException {
        for (String digest : digests) {
            long start = System.nanoTime();
            long size = client.pullDiscarding(REPOSITORY, digest);
            double millis = (System.nanoTime() - start) / 1e6;
            if (size != BLOB_SIZE) {
                throw new IllegalStateException("served " + size + " bytes of " + digest);
            }
            if (latencies != null) {
                latencies.add(millis);
            }
        }
    }

    /** A token for pull and push, from the registry's own endpoint, as a client gets it after the 401. */
    private static String token(URI registry) throws IOException, InterruptedException {
        try (HttpClient http = HttpClient.newHttpClient()) {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(registry.resolve(
                            "/token?service=layerfold&scope=repository:" + REPOSITORY + ":pull,push"))
                    .header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                            "bench:bench-secret".getBytes(StandardCharsets.UTF_8))).build(),
                    HttpResponse.BodyHandlers.ofString());
            Matcher token = TOKEN.matcher(response.body());
            if (response.statusCode() != 200 || !token.find()) {
                throw new IOException("no token from " + registry + ": " + response.statusCode() + " " + response.body());
            }
            return token.group(1);
        }
    }

    private static String sha256(byte[] bytes) {
        try {
            return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
