package dev.layerfold.gc;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.blob.BlobContent;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.dedup.DedupIndex;
import dev.layerfold.storage.dedup.FileLocation;
import dev.layerfold.storage.dedup.LayerRecordFiles;
import dev.layerfold.storage.dedup.LayerState;
import dev.layerfold.storage.gc.GcIndex;
import dev.layerfold.storage.gc.ManifestTargets;
import dev.layerfold.storage.metadata.ManifestRecord;
import dev.layerfold.storage.metadata.MetadataStore;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Proves the registry whole, from the links down to the bytes: every tag resolves, every manifest's
 * bytes and blobs exist (intact or rebuildable), the GC index holds every manifest's references,
 * every deduplicated layer's record exists and its files are where the index says (never in a pack a
 * rewrite retired) and hash right, and the file
 * reference counts agree with the layers. With repair on, it records missing references again from
 * the manifests (the bucket is the system of record); the rest it reports.
 *
 * <p>It reads every manifest and, for deduplicated layers, every file: a tool for operators and the
 * soak test, not something to run on every request.
 */
public final class RegistryCheck {

    /** Problems listed in a report; beyond, they are only counted. */
    public static final int LISTED = 1_000;
    private static final int PAGE = 500;

    /** Checks one stored file against its digest: false if its bytes are gone or hash otherwise. */
    @FunctionalInterface
    public interface FileVerifier {
        boolean intact(Digest file, FileLocation location) throws IOException;
    }

    /** What the check needs of deduplication, where it runs. */
    public record Dedup(DedupIndex index, LayerRecordFiles records, FileVerifier files) {
    }

    private final BlobStore blobs;
    private final BlobContent content;
    private final MetadataStore metadata;
    private final GcIndex gc;
    private final ManifestTargets targets;
    private final Optional<Dedup> dedup;
    private final Predicate<RepositoryName> fetchedOnDemand;

    public RegistryCheck(BlobStore blobs, BlobContent content, MetadataStore metadata, GcIndex gc,
                         ManifestTargets targets, Optional<Dedup> dedup) {
        this(blobs, content, metadata, gc, targets, dedup, repository -> false);
    }

    /**
     * @param fetchedOnDemand repositories cached from an upstream, whose manifests name blobs and child
     *     manifests that are fetched only when a client asks for them: their absence is no problem
     */
    public RegistryCheck(BlobStore blobs, BlobContent content, MetadataStore metadata, GcIndex gc,
                         ManifestTargets targets, Optional<Dedup> dedup, Predicate<RepositoryName> fetchedOnDemand) {
        this.fetchedOnDemand = fetchedOnDemand;
        this.blobs = blobs;
        this.content = content;
        this.metadata = metadata;
        this.gc = gc;
        this.targets = targets;
        this.dedup = dedup;
    }

    public CheckReport run(boolean repair) throws IOException {
        Run run = new Run(repair);
        Optional<RepositoryName> after = Optional.empty();
        for (List<RepositoryName> page; !(page = metadata.repositories(after, PAGE)).isEmpty(); after = Optional.of(page.getLast())) {
            for (RepositoryName repository : page) {
                run.repositories++;
                run.checkManifests(repository);
                run.checkTags(repository);
            }
        }
        run.checkCounts();
        return new CheckReport(run.repositories, run.tags, run.manifests, run.checkedBlobs.size(), run.layers.size(),
                run.checkedFiles.size(), run.problemCount, run.problems, run.repaired);
    }

    private final class Run {
        final boolean repair;
        long repositories;
        long tags;
        long manifests;
        long problemCount;
        long repaired;
        final List<CheckReport.Problem> problems = new ArrayList<>();
        final Set<Digest> checkedBlobs = new HashSet<>();
        final Set<Digest> layers = new HashSet<>();
        final Set<Digest> checkedFiles = new HashSet<>();
        Set<Digest> retired;
        /** For each file, how many distinct deduplicated layers the manifests reach hold it. */
        final Map<Digest, Long> layersHolding = new HashMap<>();

        Run(boolean repair) {
            this.repair = repair;
        }

        void checkTags(RepositoryName repository) throws IOException {
            Optional<String> after = Optional.empty();
            for (List<String> page; !(page = metadata.tags(repository, after, PAGE)).isEmpty(); after = Optional.of(page.getLast())) {
                for (String tag : page) {
                    tags++;
                    Optional<Digest> manifest = metadata.tag(repository, tag);
                    if (manifest.isPresent() && (metadata.manifest(repository, manifest.get()).isEmpty()
                            || blobs.size(manifest.get()).isEmpty())) {
                        problem(CheckReport.Kind.TAG_UNRESOLVED, repository, manifest.get(), "tag " + tag, false);
                    }
                }
            }
        }

        void checkManifests(RepositoryName repository) throws IOException {
            Optional<Digest> after = Optional.empty();
            for (List<ManifestRecord> page; !(page = metadata.manifests(repository, after, PAGE)).isEmpty();
                 after = Optional.of(page.getLast().digest())) {
                for (ManifestRecord manifest : page) {
                    manifests++;
                    checkManifest(repository, manifest);
                }
            }
        }

        void checkManifest(RepositoryName repository, ManifestRecord manifest) throws IOException {
            Optional<InputStream> stream = blobs.open(manifest.digest(), 0, -1);
            if (stream.isEmpty()) {
                problem(CheckReport.Kind.MANIFEST_MISSING, repository, manifest.digest(), "its bytes are gone", false);
                return;
            }
            byte[] bytes;
            try (InputStream in = stream.get()) {
                bytes = in.readAllBytes();
            }
            Collection<Digest> named = targets.of(bytes, manifest.mediaType());
            List<Digest> all = new ArrayList<>(new LinkedHashSet<>(named));
            all.add(manifest.digest());
            for (Digest target : new LinkedHashSet<>(named)) {
                if (metadata.manifest(repository, target).isPresent()) {
                    continue;
                }
                if (checkedBlobs.add(target)) {
                    checkBlob(repository, target);
                }
            }
            for (Digest target : all) {
                if (gc.references(target) == 0) {
                    boolean fixed = repair && gc.reference(repository, manifest.digest(), all).isEmpty();
                    problem(CheckReport.Kind.REFERENCE_MISSING, repository, target, "named by " + manifest.digest(), fixed);
                    if (fixed) {
                        break;
                    }
                }
            }
        }

        void checkBlob(RepositoryName repository, Digest blob) throws IOException {
            if (content.size(blob).isEmpty()) {
                if (fetchedOnDemand.test(repository)) {
                    return;
                }
                problem(CheckReport.Kind.BLOB_MISSING, repository, blob, "neither intact nor rebuildable", false);
                return;
            }
            if (dedup.isPresent() && dedup.get().index().layer(blob).orElse(null) instanceof LayerState.Deduplicated layer) {
                layers.add(blob);
                checkLayer(repository, blob, layer);
            }
        }

        void checkLayer(RepositoryName repository, Digest blob, LayerState.Deduplicated layer) throws IOException {
            Map<Digest, FileLocation> files;
            try {
                files = dedup.get().records().files(layer.record());
            } catch (IOException e) {
                problem(CheckReport.Kind.FILE_PROBLEM, repository, blob, "its record " + layer.record() + ": " + e.getMessage(), false);
                return;
            }
            for (Map.Entry<Digest, FileLocation> file : files.entrySet()) {
                layersHolding.merge(file.getKey(), 1L, Long::sum);
                if (!checkedFiles.add(file.getKey())) {
                    continue;
                }
                // The index, not the record, says where a file is now: a pack rewrite switches the index alone.
                Optional<FileLocation> indexed = dedup.get().index().file(file.getKey());
                if (indexed.isEmpty()) {
                    problem(CheckReport.Kind.FILE_PROBLEM, repository, file.getKey(), "layer " + blob
                            + "'s record names it, the index does not locate it", false);
                } else if (retiredPacks().contains(indexed.get().pack())) {
                    problem(CheckReport.Kind.FILE_PROBLEM, repository, file.getKey(), "the index places it in pack "
                            + indexed.get().pack() + ", which a rewrite retired and the collector will delete", false);
                } else if (!dedup.get().files().intact(file.getKey(), indexed.get())) {
                    problem(CheckReport.Kind.FILE_PROBLEM, repository, file.getKey(), "its bytes in pack "
                            + indexed.get().pack() + " are gone or hash otherwise", false);
                }
            }
        }

        /** Packs a rewrite retired, read once per check: no file the index locates may be in one. */
        Set<Digest> retiredPacks() throws IOException {
            if (retired == null) {
                retired = Set.copyOf(dedup.get().index().retiredPacks(Long.MAX_VALUE, Integer.MAX_VALUE));
            }
            return retired;
        }

        void checkCounts() throws IOException {
            if (dedup.isEmpty()) {
                return;
            }
            for (Map.Entry<Digest, Long> file : layersHolding.entrySet()) {
                long counted = dedup.get().index().references(file.getKey());
                if (counted < file.getValue()) {
                    problem(CheckReport.Kind.COUNT_MISMATCH, null, file.getKey(), "counted " + counted
                            + " references, " + file.getValue() + " deduplicated layers hold it", false);
                }
            }
        }

        void problem(CheckReport.Kind kind, RepositoryName repository, Digest digest, String detail, boolean fixed) {
            problemCount++;
            if (fixed) {
                repaired++;
            }
            if (problems.size() < LISTED) {
                problems.add(new CheckReport.Problem(kind, repository, digest, detail, fixed));
            }
        }
    }
}
