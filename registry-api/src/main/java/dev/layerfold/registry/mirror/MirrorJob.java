package dev.layerfold.registry.mirror;

import dev.layerfold.registry.api.RegistryEvent;
import dev.layerfold.registry.api.RegistryEventListener;
import dev.layerfold.registry.blob.BlobPullThrough;
import dev.layerfold.registry.manifest.ManifestMirror;
import dev.layerfold.registry.proxy.Upstream;
import dev.layerfold.registry.proxy.UpstreamException;
import dev.layerfold.registry.proxy.Upstreams;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.lease.Lease;
import dev.layerfold.storage.lease.Leases;
import dev.layerfold.storage.metadata.MetadataStore;
import dev.layerfold.storage.predictor.ImageContents;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One mirror rule's runs: list the upstream repository's tags (following its pagination), keep those
 * the rule selects, and for each whose upstream digest differs from the tag here, or whose content is
 * not all here, fetch what is missing (the manifest, an index's selected platform manifests, every
 * blob not held) through the pull-through's own verify-then-store path, then move the tag. The tag
 * moves last, so a run that dies leaves tags naming complete content, and the next run fetches only
 * what the dead one did not store. Across processes, one at a time per rule, by a lease.
 */
final class MirrorJob {

    private static final Logger LOG = LoggerFactory.getLogger(MirrorJob.class);
    private static final int PAGE = 1000;
    /** A tag list page of a thousand tags is tens of KB: more is not a tag list. */
    private static final int MAX_PAGE_BYTES = 4 * 1024 * 1024;
    /** Tags of one repository kept in memory while a run goes through them. */
    private static final int MAX_TAGS = 100_000;
    /** Renewed while held; lapses this long after its holder died, so another process takes over the rule. */
    private static final Duration LEASE_LIFETIME = Duration.ofSeconds(30);

    private final MirrorProperties.Rule rule;
    private final TagSelection selection;
    private final Upstreams.Target target;
    private final RepositoryName repository;
    private final ManifestMirror manifests;
    private final BlobPullThrough blobs;
    private final MetadataStore metadata;
    private final ObjectProvider<Leases> leases;
    private final ObjectProvider<RegistryEventListener> events;
    private final Clock clock;
    private final JsonMapper json = new JsonMapper();

    private final Counter tagsMirrored;
    private final Counter manifestsFetched;
    private final Counter blobsFetched;
    private final Counter bytesFetched;
    private final Counter failures;
    private final Counter runs;
    private final Counter skipped;
    private final AtomicLong lastSuccess = new AtomicLong();
    private volatile MirrorRun lastRun;

    MirrorJob(MirrorProperties.Rule rule, Upstreams.Target target, RepositoryName repository, ManifestMirror manifests,
              BlobPullThrough blobs, MetadataStore metadata, ObjectProvider<Leases> leases,
              ObjectProvider<RegistryEventListener> events, MeterRegistry meters, Clock clock) {
        this.rule = rule;
        this.selection = TagSelection.of(rule.tags(), rule.semver());
        this.target = target;
        this.repository = repository;
        this.manifests = manifests;
        this.blobs = blobs;
        this.metadata = metadata;
        this.leases = leases;
        this.events = events;
        this.clock = clock;
        String name = rule.name();
        this.tagsMirrored = Counter.builder("layerfold.mirror.tags.mirrored").tag("rule", name)
                .description("Tags a mirror rule moved to new content from its upstream").register(meters);
        this.manifestsFetched = Counter.builder("layerfold.mirror.manifests.fetched").tag("rule", name)
                .description("Manifests a mirror rule fetched from its upstream").register(meters);
        this.blobsFetched = Counter.builder("layerfold.mirror.blobs.fetched").tag("rule", name)
                .description("Blobs a mirror rule fetched from its upstream").register(meters);
        this.bytesFetched = Counter.builder("layerfold.mirror.fetched").baseUnit("bytes").tag("rule", name)
                .description("Blob bytes a mirror rule fetched from its upstream").register(meters);
        this.failures = Counter.builder("layerfold.mirror.failures").tag("rule", name)
                .description("Tags (or whole runs) a mirror rule failed to mirror").register(meters);
        this.runs = Counter.builder("layerfold.mirror.runs").tag("rule", name)
                .description("Runs of a mirror rule this process finished, failed or not").register(meters);
        this.skipped = Counter.builder("layerfold.mirror.runs.skipped").tag("rule", name)
                .description("Runs of a mirror rule this process left out because another process was running it")
                .register(meters);
        Gauge.builder("layerfold.mirror.last.success.timestamp", lastSuccess, AtomicLong::get).baseUnit("seconds")
                .tag("rule", name).description("When a run of the rule last finished without a failure (epoch)")
                .register(meters);
    }

    MirrorProperties.Rule rule() {
        return rule;
    }

    Optional<MirrorRun> lastRun() {
        return Optional.ofNullable(lastRun);
    }

    /** One run, unless another process is running the rule: then nothing. */
    void run() {
        Instant started = clock.instant();
        Leases shared = leases.getIfAvailable();
        Optional<Lease> lease = Optional.empty();
        try {
            if (shared != null) {
                lease = shared.tryAcquire("mirror/" + rule.name(), LEASE_LIFETIME);
                if (lease.isEmpty()) {
                    skipped.increment();
                    LOG.debug("mirror rule {} is being run by another process", rule.name());
                    return;
                }
            }
            runHoldingLease(started);
        } catch (IOException | RuntimeException e) {
            failures.increment();
            LOG.warn("mirror rule {} failed: {}", rule.name(), e.toString());
            lastRun = new MirrorRun(started, clock.instant(), 0, 0, 1, e.getMessage());
            runs.increment();
        } finally {
            lease.ifPresent(Lease::close);
        }
    }

    private void runHoldingLease(Instant started) throws IOException {
        List<String> selected = upstreamTags().stream().filter(selection::selects).toList();
        int mirrored = 0;
        int failed = 0;
        String error = null;
        for (String tag : selected) {
            try {
                if (mirrorTag(tag)) {
                    mirrored++;
                }
            } catch (IOException | RuntimeException e) {
                failed++;
                failures.increment();
                error = tag + ": " + e.getMessage();
                LOG.warn("mirror rule {} failed on tag {}: {}", rule.name(), tag, e.toString());
                if (e instanceof UpstreamException upstream && upstream.reason() == UpstreamException.Reason.RATE_LIMITED) {
                    break; // the upstream said to leave it alone; the next run continues
                }
            }
        }
        Instant finished = clock.instant();
        if (failed == 0) {
            lastSuccess.set(finished.getEpochSecond());
        }
        lastRun = new MirrorRun(started, finished, selected.size(), mirrored, failed, error);
        runs.increment();
        if (mirrored > 0 || failed > 0) {
            LOG.info("mirror rule {}: {} tags selected, {} mirrored, {} failed", rule.name(), selected.size(), mirrored, failed);
        } else {
            LOG.debug("mirror rule {}: {} tags selected, all as upstream", rule.name(), selected.size());
        }
    }

    /** The upstream repository's tags, every page of them. */
    private List<String> upstreamTags() throws IOException {
        Upstream upstream = target.upstream();
        List<String> tags = new ArrayList<>();
        String path = "tags/list?n=" + PAGE;
        while (path != null) {
            Optional<String> next;
            try (Upstream.Response answer = upstream.send("GET", target.repository(), path, "tags", List.of())) {
                if (answer.status() == 404) {
                    throw upstream.failure(UpstreamException.Reason.STATUS, "has no repository " + target.repository());
                }
                byte[] body = answer.body().readNBytes(MAX_PAGE_BYTES + 1);
                if (body.length > MAX_PAGE_BYTES) {
                    answer.abort();
                    throw upstream.failure(UpstreamException.Reason.TOO_LARGE, "sent a tag list page over "
                            + MAX_PAGE_BYTES + " bytes");
                }
                JsonNode page = json.readTree(body);
                for (JsonNode tag : page.path("tags")) {
                    if (tag.isString()) {
                        tags.add(tag.stringValue());
                    }
                }
                next = answer.header("Link").flatMap(MirrorJob::nextPage);
            }
            if (tags.size() > MAX_TAGS) {
                throw upstream.failure(UpstreamException.Reason.TOO_LARGE, target.repository() + " has over " + MAX_TAGS + " tags");
            }
            path = next.orElse(null);
        }
        return tags;
    }

    /** The next page of a {@code Link: </v2/name/tags/list?last=x&n=1000>; rel="next"} header, as a path under the repository. */
    static Optional<String> nextPage(String link) {
        int open = link.indexOf('<');
        int close = link.indexOf('>', open + 1);
        if (open < 0 || close < 0 || !link.substring(close).contains("next")) {
            return Optional.empty();
        }
        String url = link.substring(open + 1, close);
        int query = url.indexOf('?');
        return query < 0 ? Optional.empty() : Optional.of("tags/list" + url.substring(query));
    }

    /** Mirrors one tag; true if it moved (or was new here), false if it already named this content. */
    private boolean mirrorTag(String tag) throws IOException {
        Optional<Digest> current = manifests.upstreamDigest(target, tag);
        if (current.isEmpty()) {
            return false; // deleted upstream since it was listed; the copy here (if any) stays
        }
        Optional<Digest> held = metadata.tag(repository, tag);
        ManifestMirror.Manifest top = read(current.get());
        if (top.children().isEmpty()) {
            fetchBlobs(top);
        } else {
            for (ImageContents.PlatformManifest child : top.children()) {
                if (platformSelected(child.platform())) {
                    ManifestMirror.Manifest platform = read(child.manifest());
                    fetchBlobs(platform);
                    manifests.store(repository, platform, Optional.empty());
                }
            }
        }
        manifests.store(repository, top, Optional.of(tag));
        if (held.equals(current)) {
            return false;
        }
        tagsMirrored.increment();
        RegistryEventListener.tell(events, () -> RegistryEvent.mirrored(repository, top.digest(), top.mediaType(),
                top.size(), tag));
        return true;
    }

    private ManifestMirror.Manifest read(Digest digest) throws IOException {
        ManifestMirror.Manifest manifest = manifests.read(target, repository, digest).orElseThrow(() -> target.upstream()
                .failure(UpstreamException.Reason.STATUS, "has no manifest " + digest + " in " + target.repository()));
        if (manifest.fetched()) {
            manifestsFetched.increment();
        }
        return manifest;
    }

    private void fetchBlobs(ManifestMirror.Manifest manifest) throws IOException {
        for (Digest blob : manifest.blobs().stream().distinct().toList()) {
            long fetched = blobs.mirror(target, repository, blob);
            if (fetched > 0) {
                blobsFetched.increment();
                bytesFetched.increment(fetched);
            }
        }
    }

    /** {@code linux/arm64} selects {@code linux/arm64} and its variants ({@code linux/arm64/v8}). */
    private boolean platformSelected(String platform) {
        return rule.platforms().isEmpty() || rule.platforms().stream()
                .anyMatch(wanted -> platform.equals(wanted) || platform.startsWith(wanted + "/"));
    }
}
