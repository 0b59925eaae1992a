package dev.layerfold.registry.manifest;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.blob.BlobContent;
import dev.layerfold.storage.gc.GcIndex;
import dev.layerfold.storage.metadata.ManifestRecord;
import dev.layerfold.storage.metadata.MetadataStore;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.springframework.stereotype.Component;

/**
 * Applies retention policies (the first whose pattern names a repository governs it): removes the
 * tags and manifests they do not keep, through the same delete a client's DELETE takes, so the
 * garbage collector then reclaims what nothing references. A dry run changes nothing and reports the
 * same.
 */
@Component
public class Retention {

    private static final int PAGE = 500;

    private final ManifestService manifests;
    private final ManifestParser parser;
    private final MetadataStore metadata;
    private final GcIndex gc;
    private final BlobContent content;
    private final Clock clock;

    Retention(ManifestService manifests, ManifestParser parser, MetadataStore metadata, GcIndex gc, BlobContent content) {
        this.manifests = manifests;
        this.parser = parser;
        this.metadata = metadata;
        this.gc = gc;
        this.content = content;
        this.clock = Clock.systemUTC();
    }

    public RetentionReport apply(List<RetentionPolicy> policies, boolean dryRun) throws IOException {
        List<String> tagsGone = new ArrayList<>();
        List<String> manifestsGone = new ArrayList<>();
        Map<Digest, Integer> releasedReferences = new HashMap<>();
        Optional<RepositoryName> after = Optional.empty();
        for (List<RepositoryName> page; !(page = metadata.repositories(after, PAGE)).isEmpty(); after = Optional.of(page.getLast())) {
            for (RepositoryName repository : page) {
                Optional<RetentionPolicy> policy = policies.stream().filter(p -> p.repositories().matches(repository)).findFirst();
                if (policy.isPresent()) {
                    apply(repository, policy.get(), dryRun, tagsGone, manifestsGone, releasedReferences);
                }
            }
        }
        long bytes = 0;
        for (Map.Entry<Digest, Integer> target : releasedReferences.entrySet()) {
            // Dry run: the references are all still there; after a run, the freed ones are at zero.
            long left = gc.references(target.getKey()) - (dryRun ? target.getValue() : 0);
            if (left <= 0) {
                bytes += content.size(target.getKey()).orElse(0L);
            }
        }
        return new RetentionReport(dryRun, tagsGone, manifestsGone, bytes);
    }

    private void apply(RepositoryName repository, RetentionPolicy policy, boolean dryRun, List<String> tagsGone,
                       List<String> manifestsGone, Map<Digest, Integer> releasedReferences) throws IOException {
        Map<Digest, Image> images = images(repository);
        Map<String, Digest> tags = tags(repository);
        Set<String> removedTags = new HashSet<>();
        if (policy.limitsTags()) {
            List<String> newestFirst = tags.keySet().stream().filter(tag -> images.containsKey(tags.get(tag)))
                    .sorted(Comparator.comparingLong((String tag) -> -images.get(tags.get(tag)).pushedAt())
                            .thenComparing(Comparator.naturalOrder())).toList();
            for (int recency = 0; recency < newestFirst.size(); recency++) {
                if (!policy.keepsTag(newestFirst.get(recency), recency)) {
                    removedTags.add(newestFirst.get(recency));
                }
            }
        }
        Set<Digest> stillTagged = new HashSet<>();
        Set<Digest> lostTags = new HashSet<>();
        tags.forEach((tag, digest) -> (removedTags.contains(tag) ? lostTags : stillTagged).add(digest));
        lostTags.removeAll(stillTagged);
        Set<Digest> listedByIndexes = new HashSet<>();
        images.values().forEach(image -> listedByIndexes.addAll(image.children()));
        long untaggedBefore = policy.untaggedAfter().map(age -> clock.millis() - age.toMillis()).orElse(Long.MIN_VALUE);

        Set<Digest> removed = new HashSet<>();
        for (Image image : images.values()) {
            boolean expired = lostTags.contains(image.digest()) || (!stillTagged.contains(image.digest())
                    && image.pushedAt() <= untaggedBefore);
            if (expired && !listedByIndexes.contains(image.digest())
                    && metadata.referrers(repository, image.digest()).isEmpty()
                    && image.subject().map(subject -> !images.containsKey(subject)).orElse(true)) {
                removed.add(image.digest());
            }
        }
        // Referrers of what goes, untagged themselves, go with it.
        for (Image image : images.values()) {
            if (image.subject().filter(removed::contains).isPresent() && !stillTagged.contains(image.digest())) {
                removed.add(image.digest());
            }
        }
        for (String tag : removedTags) {
            tagsGone.add(repository.value() + ":" + tag);
            if (!dryRun && !removed.contains(tags.get(tag))) {
                manifests.delete(repository, new Reference.Tag(tag));
            }
        }
        for (Digest digest : removed) {
            manifestsGone.add(repository.value() + "@" + digest);
            for (Digest target : images.get(digest).targets()) {
                releasedReferences.merge(target, 1, Integer::sum);
            }
            if (!dryRun) {
                manifests.delete(repository, new Reference.ByDigest(digest));
            }
        }
    }

    /** A linked manifest, as retention weighs it. */
    private record Image(Digest digest, long pushedAt, List<Digest> children, Optional<Digest> subject, List<Digest> targets) {
    }

    private Map<Digest, Image> images(RepositoryName repository) throws IOException {
        Map<Digest, Image> images = new LinkedHashMap<>();
        Optional<Digest> after = Optional.empty();
        for (List<ManifestRecord> page; !(page = metadata.manifests(repository, after, PAGE)).isEmpty();
             after = Optional.of(page.getLast().digest())) {
            for (ManifestRecord record : page) {
                Optional<byte[]> bytes = bytes(record.digest());
                if (bytes.isEmpty()) {
                    continue; // the checker reports it; retention does not judge what it cannot read
                }
                ParsedManifest parsed = parser.parse(bytes.get(), Optional.of(record.mediaType()));
                List<Digest> targets = new ArrayList<>(parsed.blobs());
                targets.addAll(parsed.manifests());
                targets.add(record.digest());
                long pushedAt = gc.referencedSince(repository, record.digest()).orElse(0L);
                images.put(record.digest(), new Image(record.digest(), pushedAt, parsed.manifests(), parsed.subject(), targets));
            }
        }
        return images;
    }

    private Map<String, Digest> tags(RepositoryName repository) throws IOException {
        Map<String, Digest> tags = new LinkedHashMap<>();
        Optional<String> after = Optional.empty();
        for (List<String> page; !(page = metadata.tags(repository, after, PAGE)).isEmpty(); after = Optional.of(page.getLast())) {
            for (String tag : page) {
                metadata.tag(repository, tag).ifPresent(digest -> tags.put(tag, digest));
            }
        }
        return tags;
    }

    private Optional<byte[]> bytes(Digest manifest) throws IOException {
        Optional<InputStream> stream = content.open(manifest, 0, -1);
        if (stream.isEmpty()) {
            return Optional.empty();
        }
        try (InputStream in = stream.get()) {
            return Optional.of(in.readAllBytes());
        }
    }
}
