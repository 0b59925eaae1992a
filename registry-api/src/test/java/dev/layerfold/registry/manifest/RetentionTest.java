package dev.layerfold.registry.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.registry.RegistryHttpTest;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryPattern;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

class RetentionTest extends RegistryHttpTest {

    @Autowired
    Retention retention;

    @Test
    void theLastTagsPushedAndThoseMatchingThePatternStayAndADryRunChangesNothing() throws Exception {
        String repository = uniqueRepository("retention-tags");
        Digest first = pushImage(repository, "v1");
        pushImage(repository, "v2");
        pushImage(repository, "v3");
        pushManifest(repository, "stable", OCI_MANIFEST, manifestBytes(repository, first));
        RetentionPolicy policy = new RetentionPolicy(new RepositoryPattern(repository), OptionalInt.of(2),
                Optional.of(Pattern.compile("stable")), Optional.empty());

        RetentionReport dryRun = retention.apply(List.of(policy), true);

        assertThat(dryRun.tags()).containsExactly(repository + ":v1");
        assertThat(dryRun.manifests()).as("still tagged stable").isEmpty();
        assertThat(status(repository, "v1")).isEqualTo(200);

        retention.apply(List.of(policy), false);

        assertThat(status(repository, "v1")).isEqualTo(404);
        for (String kept : List.of("v2", "v3", "stable")) {
            assertThat(status(repository, kept)).as(kept).isEqualTo(200);
        }
    }

    @Test
    void untaggedManifestsExpireButIndexChildrenAndReferrersOfKeptSubjectsStay() throws Exception {
        String repository = uniqueRepository("retention-untagged");
        Digest untagged = pushUntagged(repository, "alone");
        Digest child = pushUntagged(repository, "child");
        byte[] index = ("{\"schemaVersion\":2,\"mediaType\":\"" + OCI_INDEX + "\",\"manifests\":["
                + descriptor(OCI_MANIFEST, child, manifestBytes(repository, child).length) + "]}").getBytes(StandardCharsets.UTF_8);
        pushManifest(repository, "multi", OCI_INDEX, index);
        Digest subject = pushImage(repository, "v1");
        byte[] config = "{\"signature\":true}".getBytes(StandardCharsets.UTF_8);
        Digest configDigest = pushBlob(repository, config);
        String referrer = new String(imageManifest(configDigest, config.length), StandardCharsets.UTF_8);
        byte[] withSubject = (referrer.substring(0, referrer.length() - 1) + ",\"subject\":"
                + descriptor(OCI_MANIFEST, subject, manifestBytes(repository, subject).length) + "}").getBytes(StandardCharsets.UTF_8);
        Digest signature = pushManifest(repository, Digest.sha256(withSubject).toString(), OCI_MANIFEST, withSubject);
        RetentionPolicy policy = new RetentionPolicy(new RepositoryPattern(repository), OptionalInt.empty(),
                Optional.empty(), Optional.of(Duration.ZERO));

        RetentionReport dryRun = retention.apply(List.of(policy), true);

        assertThat(dryRun.manifests()).containsExactly(repository + "@" + untagged);
        assertThat(dryRun.bytesFreed()).as("its manifest, config and layer").isPositive();

        retention.apply(List.of(policy), false);

        assertThat(status(repository, untagged.toString())).isEqualTo(404);
        for (Digest kept : List.of(child, subject, signature)) {
            assertThat(status(repository, kept.toString())).isEqualTo(200);
        }
    }

    private Digest pushUntagged(String repository, String name) throws Exception {
        byte[] config = ("{\"name\":\"" + name + "\"}").getBytes(StandardCharsets.UTF_8);
        Digest configDigest = pushBlob(repository, config);
        Digest layer = pushBlob(repository, "layer of " + name + " in " + repository);
        byte[] manifest = imageManifest(configDigest, config.length, layer);
        return pushManifest(repository, Digest.sha256(manifest).toString(), OCI_MANIFEST, manifest);
    }

    private byte[] manifestBytes(String repository, Digest manifest) throws Exception {
        return request("GET", "/v2/" + repository + "/manifests/" + manifest).header("Accept", OCI_MANIFEST).send().body();
    }

    private int status(String repository, String reference) throws Exception {
        return request("GET", "/v2/" + repository + "/manifests/" + reference)
                .header("Accept", OCI_MANIFEST + "," + OCI_INDEX).send().statusCode();
    }
}
