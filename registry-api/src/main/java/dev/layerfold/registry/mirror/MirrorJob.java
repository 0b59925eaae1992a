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
 * One mirror rule's runs: for a rule naming repositories by glob, list the upstream's catalog (following
 * its pagination) and keep the repositories the glob selects; for each repository,
 * list the upstream repository's tags (following its pagination), keep those
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
    /** Repositories of an upstream's catalog kept in memory while a run goes through them. */
    private static final int MAX_REPOSITORIES = 100_000;
    /** Renewed while held; lapses this long after its holder died, so another process takes over the rule. */
    private static final Duration LEASE_LIFETIME = Duration.ofSeconds(30);

    private final MirrorProperties.Rule rule;
    private final TagSelection selection;
    /** Where the rule's repositories come from, found again per run for a rule naming them by glob. */
    private final Upstreams upstreams;
    private final Optional<RepositoryGlob> glob;
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

    MirrorJob(MirrorProperties.Rule rule, Upstreams upstreams, ManifestMirror manifests,
              BlobPullThrough blobs, MetadataStore metadata, ObjectProvider<Leases> leases,
              ObjectProvider<RegistryEventListener> events, MeterRegistry meters, Clock clock) {
        this.rule = rule;
        this.selection = TagSelection.of(rule.tags(), rule.semver());
        this.upstreams = upstreams;
        this.glob = rule.selectsRepositories() ? Optional.of(RepositoryGlob.of(rule.repository())) : Optional.empty();
        if (glob.isEmpty()) {
            target(rule.repository()); // refuses, at startup, a rule whose upstream does not serve its repository
        } else if (upstreams.named(rule.upstream()).isEmpty()) {
            throw new IllegalArgumentException("layerfold.mirror.rules[" + rule.name() + "].upstream names no upstream of"
                    + " layerfold.proxy.upstreams");
        }
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
            lastRun = new MirrorRun(started, clock.instant(), 0, 0, 0, 1, e.getMessage());
            runs.increment();
        } finally {
            lease.ifPresent(Lease::close);
        }
    }

    /** Where one repository of the rule comes from, and its name here (under the upstream's prefix). */
    private record Source(Upstreams.Target target, RepositoryName local) {
    }

    /** What a run did so far. */
    private static final class Tally {
        int repositories;
        int selected;
        int mirrored;
        int failed;
        String error;
        boolean rateLimited;
    }

    private Source target(String upstreamRepository) {
        RepositoryName local = RepositoryName.of(rule.upstream() + "/" + upstreamRepository);
        Upstreams.Target target = upstreams.route(local)
                .filter(routed -> routed.upstream().name().equals(rule.upstream()))
                .orElseThrow(() -> new IllegalArgumentException("layerfold.mirror.rules[" + rule.name() + "].upstream "
                        + "names no upstream of layerfold.proxy.upstreams whose prefix " + rule.upstream() + " serves " + local));
        return new Source(target, local);
    }

    private void runHoldingLease(Instant started) throws IOException {
        Tally tally = new Tally();
        if (glob.isEmpty()) {
            mirrorRepository(target(rule.repository()), tally);
        } else {
            for (String selected : catalog()) {
                Source source;
                try {
                    source = target(selected);
                } catch (IllegalArgumentException e) {
                    continue; // not a name this registry can hold, or served here by another upstream's longer prefix
                }
                try {
                    mirrorRepository(source, tally);
                } catch (IOException | RuntimeException e) {
                    tally.failed++;
                    failures.increment();
                    tally.error = selected + ": " + e.getMessage();
                    LOG.warn("mirror rule {} failed on repository {}: {}", rule.name(), selected, e.toString());
                    tally.rateLimited = isRateLimit(e);
                }
                if (tally.rateLimited) {
                    break; // the upstream said to leave it alone; the next run continues
                }
            }
        }
        int mirrored = tally.mirrored;
        int failed = tally.failed;
        String error = tally.error;
        int selected = tally.selected;
        Instant finished = clock.instant();
        if (failed == 0) {
            lastSuccess.set(finished.getEpochSecond());
        }
        lastRun = new MirrorRun(started, finished, tally.repositories, selected, mirrored, failed, error);
        runs.increment();
        if (mirrored > 0 || failed > 0) {
            LOG.info("mirror rule {}: {} tags selected, {} mirrored, {} failed", rule.name(), selected, mirrored, failed);
        } else {
            LOG.debug("mirror rule {}: {} tags selected, all as upstream", rule.name(), selected);
        }
    }

    private static boolean isRateLimit(Exception e) {
        return e instanceof UpstreamException upstream && upstream.reason() == UpstreamException.Reason.RATE_LIMITED;
    }

    /** Mirrors the tags the rule selects of one repository. */
    private void mirrorRepository(Source source, Tally tally) throws IOException {
        tally.repositories++;
        List<String> selected = upstreamTags(source.target()).stream().filter(selection::selects).toList();
        tally.selected += selected.size();
        for (String tag : selected) {
            try {
                if (mirrorTag(source, tag)) {
                    tally.mirrored++;
                }
            } catch (IOException | RuntimeException e) {
                tally.failed++;
                failures.increment();
                tally.error = (glob.isPresent() ? source.target().repository() + ":" : "") + tag + ": " + e.getMessage();
                LOG.warn("mirror rule {} failed on {}:{}: {}", rule.name(), source.target().repository(), tag, e.toString());
                if (isRateLimit(e)) {
                    tally.rateLimited = true;
                    break; // the upstream said to leave it alone; the next run continues
                }
            }
        }
    }

    /**
     * The repositories of the upstream's catalog ({@code /v2/_catalog}, every page of it) the rule's glob
     * selects. An upstream without a catalog (Docker Hub has none) fails the run with an error that says so.
     */
    private List<String> catalog() throws IOException {
        Upstream upstream = upstreams.named(rule.upstream()).orElseThrow();
        RepositoryGlob selecting = glob.orElseThrow();
        List<String> selected = new ArrayList<>();
        int listed = 0;
        String query = "?n=" + PAGE;
        while (query != null) {
            Optional<String> next;
            try (Upstream.Response answer = upstream.catalog(query)) {
                if (answer.status() == 404) {
                    throw upstream.failure(UpstreamException.Reason.STATUS, noCatalog("answered 404"));
                }
                byte[] body = answer.body().readNBytes(MAX_PAGE_BYTES + 1);
                if (body.length > MAX_PAGE_BYTES) {
                    answer.abort();
                    throw upstream.failure(UpstreamException.Reason.TOO_LARGE, "sent a catalog page over " + MAX_PAGE_BYTES + " bytes");
                }
                JsonNode page = json.readTree(body);
                if (!page.path("repositories").isArray()) {
                    throw upstream.failure(UpstreamException.Reason.STATUS, noCatalog("sent no list of repositories"));
                }
                for (JsonNode repository : page.path("repositories")) {
                    listed++;
                    if (repository.isString() && selecting.matches(repository.stringValue())) {
                        selected.add(repository.stringValue());
                    }
                }
                next = answer.header("Link").flatMap(MirrorJob::nextQuery);
            } catch (UpstreamException e) {
                if (e.reason() == UpstreamException.Reason.UNAUTHORIZED || e.reason() == UpstreamException.Reason.STATUS) {
                    // Counted by the upstream already (refused, or an unexpected status); said here for what it means to the rule.
                    throw e.getMessage().contains("offers no catalog") ? e : new IOException(noCatalog(e.getMessage()), e);
                }
                throw e;
            }
            if (listed > MAX_REPOSITORIES) {
                throw upstream.failure(UpstreamException.Reason.TOO_LARGE, "has over " + MAX_REPOSITORIES + " repositories in its catalog");
            }
            query = next.orElse(null);
        }
        return selected;
    }

    private String noCatalog(String why) {
        return "offers no catalog of repositories (/v2/_catalog: " + why + "), which the rule " + rule.name()
                + " needs to select repositories by glob; name the repositories one per rule instead";
    }

    /** The upstream repository's tags, every page of them. */
    private List<String> upstreamTags(Upstreams.Target target) throws IOException {
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
        return nextQuery(link).map(query -> "tags/list" + query);
    }

    /** The query of the next page a {@code Link: <...?last=x&n=1000>; rel="next"} header names ({@code ?last=x&n=1000}). */
    static Optional<String> nextQuery(String link) {
        int open = link.indexOf('<');
        int close = link.indexOf('>', open + 1);
        if (open < 0 || close < 0 || !link.substring(close).contains("next")) {
            return Optional.empty();
        }
        String url = link.substring(open + 1, close);
        int query = url.indexOf('?');
        return query < 0 ? Optional.empty() : Optional.of(url.substring(query));
    }

    /** Mirrors one tag; true if it moved (or was new here), false if it already named this content. */
    private boolean mirrorTag(Source source, String tag) throws IOException {
        Upstreams.Target target = source.target();
        RepositoryName repository = source.local();
        Optional<Digest> current = manifests.upstreamDigest(target, tag);
        if (current.isEmpty()) {
            return false; // deleted upstream since it was listed; the copy here (if any) stays
        }
        Optional<Digest> held = metadata.tag(repository, tag);
        ManifestMirror.Manifest top = read(source, current.get());
        if (top.children().isEmpty()) {
            fetchBlobs(source, top);
        } else {
            for (ImageContents.PlatformManifest child : top.children()) {
                if (platformSelected(child.platform())) {
                    ManifestMirror.Manifest platform = read(source, child.manifest());
                    fetchBlobs(source, platform);
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

    private ManifestMirror.Manifest read(Source source, Digest digest) throws IOException {
        Upstreams.Target target = source.target();
        ManifestMirror.Manifest manifest = manifests.read(target, source.local(), digest).orElseThrow(() -> target.upstream()
                .failure(UpstreamException.Reason.STATUS, "has no manifest " + digest + " in " + target.repository()));
        if (manifest.fetched()) {
            manifestsFetched.increment();
        }
        return manifest;
    }

    private void fetchBlobs(Source source, ManifestMirror.Manifest manifest) throws IOException {
        for (Digest blob : manifest.blobs().stream().distinct().toList()) {
            long fetched = blobs.mirror(source.target(), source.local(), blob);
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
