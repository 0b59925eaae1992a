package dev.layerfold.e2e.dedup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.e2e.blob.Sha256;
import dev.layerfold.e2e.client.Skopeo;
import dev.layerfold.e2e.oci.Descriptor;
import dev.layerfold.e2e.oci.ImageWriter;
import dev.layerfold.e2e.oci.OciLayout;
import dev.layerfold.e2e.process.LayerfoldProcess;
import dev.layerfold.e2e.process.RegistryProcess;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 26, as a fleet of nodes does it after a deploy: 32 distinct deduplicated layers of 100 MiB of
 * tar each, from four producers (Go gzip -1 and -6, the JDK's zlib, GNU gzip), pulled cold all at once
 * from the packaged registry at {@code -Xmx256m}, with {@code Range} requests for their ends and the
 * predictor rebuilding ahead after each manifest GET. Every response must be whole and byte-identical,
 * none 5xx, and the process must live: restores wait for their share of the rebuild memory instead of
 * running the heap out (before the budget, two such pulls at once killed it).
 */
class ColdPullsUnderMemoryPressureTest {

    private static final int LAYERS = 32;
    private static final int RANGES = 8;
    private static final int FILES = 400;
    private static final int FILE_SIZE = 256 * 1024;
    /** Half of them crane's (the cheapest to make and to restore), the rest docker's, Jib's and GNU gzip's. */
    private static final Producer[] PRODUCERS = {Producer.GO_GZIP_1, Producer.GO_GZIP_6, Producer.GO_GZIP_1, Producer.JDK_GZIP,
        Producer.GO_GZIP_1, Producer.GNU_GZIP};
    private static final String REPOSITORY = "fleet/app";
    private static final Duration SETTLE = Duration.ofMinutes(15);
    private static final Duration PULL = Duration.ofMinutes(30);
    private static final long RANGE_BYTES = 1 << 20;

    private record Pushed(String tag, Descriptor manifest, Descriptor layer) {
    }

    /** One response: its status and the digest of its body. */
    private record Answer(String what, int status, String bodySha256, long bodyBytes) {
    }

    @Test
    void thirtyTwoColdPullsOfLargeLayersAtOnceAllComeBackWholeAndTheRegistryLives(@TempDir Path work) throws Exception {
        OciLayout layout = OciLayout.create(work.resolve("layout"));
        List<Pushed> images = writeImages(layout, work);
        // Every pointed restore here reserves the whole 64 MiB budget, so the 40 run one after another: the last waits
        // minutes on a busy 2-core box. That wait is the budget working, not the 429 this test is not about.
        try (RegistryProcess registry = LayerfoldProcess.start("256m", work.resolve("data"), work.resolve("logs"), List.of(),
                Map.of("layerfold.dedup.restore-queue-wait", "30m"))) {
            Skopeo skopeo = Skopeo.onPath();
            for (Pushed image : images) {
                skopeo.copy(layout.skopeoReference(image.tag()), "docker://" + registry.hostAndPort() + "/" + REPOSITORY + ":" + image.tag(),
                        "--dest-tls-verify=false", "--preserve-digests");
            }
            DedupAdmin.Totals totals = DedupAdmin.settle(registry.managementUri(), SETTLE);
            assertThat(totals.layersDeduplicated()).as("every pushed layer deduplicated: %s", totals).isEqualTo(LAYERS);

            List<Answer> answers = pullAllAtOnce(registry.baseUri(), images);

            assertThat(registry.isAlive()).as("the registry is alive after the pulls; its log ends with:%n%s", registry.logTail()).isTrue();
            for (int i = 0; i < LAYERS; i++) {
                Answer whole = answers.get(i);
                assertThat(whole.status()).as(whole.what()).isEqualTo(200);
                assertThat(whole.bodySha256()).as(whole.what()).isEqualTo(images.get(i).layer().digest());
            }
            for (int i = 0; i < RANGES; i++) {
                Answer range = answers.get(LAYERS + i);
                Descriptor layer = images.get(i).layer();
                assertThat(range.status()).as(range.what()).isEqualTo(206);
                assertThat(range.bodySha256()).as(range.what()).isEqualTo(lastBytesSha256(layout, layer));
            }
            String log = Files.readString(registry.log());
            assertThat(log).doesNotContain("OutOfMemoryError");
            // The budget was what kept the heap: restores waited for memory (the log says so, at most every 10 s).
            assertThat(log).contains("waits for memory");
        }
    }

    /** GETs every image's manifest (the predictor rebuilds ahead from it) and layer, and the last MB of the first layers, all at once. */
    private static List<Answer> pullAllAtOnce(URI registry, List<Pushed> images) throws Exception {
        List<Callable<Answer>> requests = new ArrayList<>();
        CountDownLatch start = new CountDownLatch(1);
        try (HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
             ExecutorService clients = Executors.newFixedThreadPool(LAYERS + RANGES)) {
            for (Pushed image : images) {
                requests.add(() -> {
                    start.await();
                    get(http, registry.resolve("/v2/" + REPOSITORY + "/manifests/" + image.tag()), null, image.manifest().mediaType());
                    return get(http, registry.resolve("/v2/" + REPOSITORY + "/blobs/" + image.layer().digest()), null, null);
                });
            }
            for (int i = 0; i < RANGES; i++) {
                Descriptor layer = images.get(i).layer();
                String range = "bytes=" + (layer.size() - RANGE_BYTES) + "-" + (layer.size() - 1);
                requests.add(() -> {
                    start.await();
                    return get(http, registry.resolve("/v2/" + REPOSITORY + "/blobs/" + layer.digest()), range, null);
                });
            }
            List<Future<Answer>> futures = requests.stream().map(clients::submit).toList();
            start.countDown();
            List<Answer> answers = new ArrayList<>();
            for (Future<Answer> future : futures) {
                answers.add(future.get());
            }
            return answers;
        }
    }

    private static Answer get(HttpClient http, URI uri, String range, String accept) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(PULL).GET();
        if (range != null) {
            request.header("Range", range);
        }
        if (accept != null) {
            request.header("Accept", accept);
        }
        HttpResponse<InputStream> response = http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        MessageDigest sha256 = Sha256.newDigest();
        long bytes = 0;
        byte[] buffer = new byte[64 * 1024];
        try (InputStream body = response.body()) {
            for (int n = body.read(buffer); n >= 0; n = body.read(buffer)) {
                sha256.update(buffer, 0, n);
                bytes += n;
            }
        }
        String what = "GET " + uri.getPath() + (range != null ? " " + range : "");
        return new Answer(what + " answered " + response.statusCode() + " with " + bytes + " bytes", response.statusCode(),
                Sha256.format(sha256), bytes);
    }

    private static String lastBytesSha256(OciLayout layout, Descriptor layer) throws IOException {
        Path blob = layout.root().resolve("blobs").resolve("sha256").resolve(layer.digest().substring("sha256:".length()));
        byte[] tail = new byte[(int) RANGE_BYTES];
        try (RandomAccessFile file = new RandomAccessFile(blob.toFile(), "r")) {
            file.seek(layer.size() - RANGE_BYTES);
            file.readFully(tail);
        }
        return Sha256.of(tail);
    }

    /**
     * One tree of {@link #FILES} text files (compressible, as binaries and sources are), and per image a
     * root of hard links to them plus a file of its own, archived and compressed by one of the
     * producers in turn, two at once: distinct layers whose files dedup stores once. Every root is
     * linked before any is archived and removed after all are: a link made or removed changes the
     * shared files' ctime, and GNU tar fails on a file that changes while it reads it.
     */
    private static List<Pushed> writeImages(OciLayout layout, Path work) throws Exception {
        Path tree = work.resolve("tree");
        writeTree(tree);
        List<Path> roots = new ArrayList<>();
        for (int i = 0; i < LAYERS; i++) {
            Path root = work.resolve("roots").resolve(Integer.toString(i));
            Path files = Files.createDirectories(root.resolve("usr/share/app"));
            try (var names = Files.list(tree)) {
                for (Path file : names.toList()) {
                    Files.createLink(files.resolve(file.getFileName()), file);
                }
            }
            Files.createDirectories(root.resolve("etc"));
            Files.writeString(root.resolve("etc/image-" + i), "image " + i + "\n");
            roots.add(root);
        }
        List<Future<ImageWriter.Layer>> layers = new ArrayList<>();
        try (ExecutorService producers = Executors.newFixedThreadPool(2)) {
            for (int i = 0; i < LAYERS; i++) {
                int image = i;
                layers.add(producers.submit(() ->
                        PRODUCERS[image % PRODUCERS.length].write(roots.get(image), layout, work.resolve("build").resolve("layer-" + image))));
            }
        }
        ImageWriter writer = new ImageWriter(layout);
        List<Pushed> images = new ArrayList<>();
        for (int i = 0; i < LAYERS; i++) {
            ImageWriter.Layer layer = layers.get(i).get();
            Descriptor manifest = writer.image(new ImageWriter.Platform("linux", "amd64"), List.of(layer));
            String tag = "v" + i;
            layout.tag(tag, manifest);
            images.add(new Pushed(tag, manifest, layer.blob()));
        }
        deleteTree(work.resolve("roots"));
        return images;
    }

    private static void deleteTree(Path root) throws IOException {
        try (var paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    private static void writeTree(Path dir) throws IOException {
        Files.createDirectories(dir);
        Random random = new Random(26);
        String[] words = new String[2048];
        for (int i = 0; i < words.length; i++) {
            char[] word = new char[3 + random.nextInt(8)];
            for (int c = 0; c < word.length; c++) {
                word[c] = (char) ('a' + random.nextInt(26));
            }
            words[i] = new String(word);
        }
        for (int f = 0; f < FILES; f++) {
            StringBuilder text = new StringBuilder(FILE_SIZE + 64);
            while (text.length() < FILE_SIZE) {
                for (int w = 0; w < 12; w++) {
                    text.append(words[random.nextInt(words.length)]).append(w == 11 ? '\n' : ' ');
                }
            }
            try (OutputStream out = Files.newOutputStream(dir.resolve("file-" + f + ".txt"))) {
                out.write(Arrays.copyOf(text.toString().getBytes(StandardCharsets.US_ASCII), FILE_SIZE));
            }
        }
    }
}
