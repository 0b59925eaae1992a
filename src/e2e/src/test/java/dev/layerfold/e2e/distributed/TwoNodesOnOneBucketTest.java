package dev.layerfold.e2e.distributed;

import static dev.layerfold.e2e.oci.LayoutAssertions.assertSameImage;
import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.e2e.blob.BlobClient;
import dev.layerfold.e2e.blob.BlobClient.PulledBlob;
import dev.layerfold.e2e.blob.GeneratedContent;
import dev.layerfold.e2e.blob.Sha256;
import dev.layerfold.e2e.client.Skopeo;
import dev.layerfold.e2e.oci.Descriptor;
import dev.layerfold.e2e.oci.ImageWriter;
import dev.layerfold.e2e.oci.ImageWriter.Platform;
import dev.layerfold.e2e.oci.OciLayout;
import dev.layerfold.e2e.process.RegistryProcess;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two Layerfold processes on one S3 bucket and one Redis (the storage module's test servers: MinIO and
 * Redis containers where Docker runs, S3Proxy and redis-server processes otherwise), as in a cluster
 * behind a load balancer: whatever one node accepted, the other serves.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TwoNodesOnOneBucketTest {

    private static final Platform AMD64 = new Platform("linux", "amd64");
    /** Below, across and above S3's 5 MiB part minimum, so chunks and parts never line up. */
    private static final List<Long> CHUNK_SIZES = List.of(3L << 20, 7L << 20, 1L << 20, 6L << 20, 5L << 20, 2L << 20);

    private final Skopeo skopeo = Skopeo.onPath();
    private LayerfoldNode first;
    private LayerfoldNode second;

    @BeforeAll
    void startTwoNodesOnOneBucketAndOneRedis(@TempDir Path data) throws InterruptedException {
        List<LayerfoldNode> nodes = LayerfoldNode.startTogether(List.of(data.resolve("first"), data.resolve("second")),
                Backends.newS3AndRedis());
        first = nodes.get(0);
        second = nodes.get(1);
    }

    @AfterAll
    void stopNodes() throws InterruptedException {
        if (first != null) {
            first.close();
        }
        if (second != null) {
            second.close();
        }
    }

    @Test
    void skopeoRoundTripOnS3AndRedisKeepsEveryDigest(@TempDir Path work) throws Exception {
        RegistryProcess node = first.process();
        OciLayout pushed = multiLayerImage(work.resolve("pushed"), 20);
        String remote = "docker://" + node.hostAndPort() + "/e2e/distributed/one-node:v1";

        skopeo.copy(pushed.skopeoReference("v1"), remote, "--dest-tls-verify=false", "--preserve-digests");
        OciLayout pulled = OciLayout.create(work.resolve("pulled"));
        skopeo.copy(remote, pulled.skopeoReference("v1"), "--src-tls-verify=false", "--preserve-digests");

        assertSameImage(pushed, pulled, "v1");
    }

    @Test
    void imagePushedThroughOneNodeIsPulledIntactThroughTheOther(@TempDir Path work) throws Exception {
        OciLayout pushed = multiLayerImage(work.resolve("pushed"), 30);
        String image = "/e2e/distributed/two-nodes:v1";

        skopeo.copy(pushed.skopeoReference("v1"), "docker://" + first.process().hostAndPort() + image,
                "--dest-tls-verify=false", "--preserve-digests");
        OciLayout pulled = OciLayout.create(work.resolve("pulled"));
        String fromSecond = "docker://" + second.process().hostAndPort() + image;
        skopeo.copy(fromSecond, pulled.skopeoReference("v1"), "--src-tls-verify=false", "--preserve-digests");

        assertSameImage(pushed, pulled, "v1");
        assertThat(skopeo.inspectRaw(fromSecond, "--tls-verify=false"))
                .as("manifest bytes the second node serves")
                .isEqualTo(pushed.readBlob(pushed.tagged("v1").digest()));
    }

    @Test
    void chunkedUploadWhosePatchesAlternateBetweenNodesClosesWithItsDigest() throws Exception {
        String repository = "e2e/distributed/alternating";
        long seed = 40;
        long size = CHUNK_SIZES.stream().mapToLong(Long::longValue).sum();
        String digest = Sha256.of(new GeneratedContent(seed, size));
        List<RegistryProcess> nodes = List.of(first.process(), second.process());

        GeneratedContent content = new GeneratedContent(seed, size);
        try (UploadSession upload = UploadSession.open(nodes.get(1).baseUri(), repository)) {
            long offset = 0;
            for (int i = 0; i < CHUNK_SIZES.size(); i++) {
                long length = CHUNK_SIZES.get(i);
                long uploaded = upload.append(nodes.get(i % 2).baseUri(), offset, content, length);
                offset += length;
                assertThat(uploaded).as("size node %d reports after chunk %d", i % 2 + 1, i + 1).isEqualTo(offset);
            }
            // The last PATCH went to the second node; the first closes the upload.
            assertThat(upload.complete(nodes.get(0).baseUri(), digest)).isEqualTo(digest);
        }

        for (RegistryProcess node : nodes) {
            try (BlobClient client = new BlobClient(node.baseUri())) {
                assertThat(client.pull(repository, digest)).as("blob served by %s", node)
                        .isEqualTo(new PulledBlob(size, digest));
            }
        }
    }

    /** An image of four layers of generated files, tagged {@code v1}; {@code seed} keeps images apart. */
    private static OciLayout multiLayerImage(Path root, long seed) throws Exception {
        OciLayout layout = OciLayout.create(root);
        ImageWriter images = new ImageWriter(layout);
        Descriptor manifest = images.image(AMD64, List.of(images.layer(seed, 3, 200_000),
                images.layer(seed + 1, 10, 30_000), images.layer(seed + 2, 1, 1_500_000),
                images.layer(seed + 3, 40, 1_000)));
        layout.tag("v1", manifest);
        return layout;
    }
}
