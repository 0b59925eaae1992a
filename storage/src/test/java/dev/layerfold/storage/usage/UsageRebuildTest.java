package dev.layerfold.storage.usage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.blob.BlobContent;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.embedded.SqliteMetadataStore;
import dev.layerfold.storage.filesystem.FilesystemBlobStore;
import dev.layerfold.storage.gc.ManifestTargets;
import dev.layerfold.storage.metadata.ManifestRecord;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The rebuild finds from the linked manifests what the pushes had counted. */
class UsageRebuildTest {

    private static final String MEDIA_TYPE = "application/test+manifest";
    /** A test manifest is the digests it names, one a line. */
    private static final ManifestTargets TARGETS = (bytes, mediaType) ->
            Arrays.stream(new String(bytes, StandardCharsets.UTF_8).split("\n")).map(Digest::parse).toList();

    @TempDir
    Path dir;

    @Test
    void aRebuildCountsWhatThePushesCountedExceptTheirHistory() throws Exception {
        try (SqliteMetadataStore metadata = new SqliteMetadataStore(dir.resolve("metadata.db"))) {
            BlobStore blobs = new FilesystemBlobStore(dir.resolve("blobs"));
            RepositoryUsage usage = metadata.repositoryUsage();
            Digest base = put(blobs, "a base layer, shared");
            Digest own = put(blobs, "a layer of app alone");
            Digest other = put(blobs, "a layer of other alone, longer than the rest");
            Digest child = link(blobs, metadata, usage, "app", List.of(base, own));
            link(blobs, metadata, usage, "app", List.of(child));
            link(blobs, metadata, usage, "other", List.of(base, other));
            usage.pulled(Map.of(RepositoryName.of("app"), 3L));
            Usage app = usage.usage(RepositoryName.of("app")).orElseThrow();
            UsageTotals totals = usage.totals();

            new UsageRebuild(blobs, BlobContent.intact(blobs), metadata, TARGETS, Optional.empty(), usage).run();

            assertThat(usage.complete()).isTrue();
            assertThat(usage.totals()).isEqualTo(totals);
            assertThat(usage.usage(RepositoryName.of("app"))).as("pushes again one per manifest, pulls from nothing")
                    .contains(new Usage(app.repository(), app.logicalBytes(), app.exclusiveBytes(), app.storedBytes(),
                            app.freedBytes(), 2, 0));
        }
    }

    private static Digest put(BlobStore blobs, String content) throws Exception {
        byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
        Digest digest = Digest.sha256(bytes);
        String upload = "upload-" + digest.hex();
        blobs.startUpload(upload);
        blobs.append(upload, new ByteArrayInputStream(bytes));
        blobs.publish(upload, digest);
        return digest;
    }

    /** Links a manifest of {@code targets} and counts its blobs (targets that are manifests of the repository count their own). */
    private static Digest link(BlobStore blobs, SqliteMetadataStore metadata, RepositoryUsage usage, String repository,
                               List<Digest> targets) throws Exception {
        String content = String.join("\n", targets.stream().map(Digest::toString).toList());
        Digest manifest = put(blobs, content);
        RepositoryName name = RepositoryName.of(repository);
        Map<Digest, Long> sized = new LinkedHashMap<>();
        for (Digest target : targets) {
            if (metadata.manifest(name, target).isEmpty()) {
                sized.put(target, blobs.size(target).orElseThrow());
            }
        }
        usage.referenced(name, manifest, sized);
        metadata.linkManifest(name, new ManifestRecord(manifest, MEDIA_TYPE, content.length()));
        return manifest;
    }
}
