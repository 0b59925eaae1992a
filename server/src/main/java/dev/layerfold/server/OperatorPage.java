package dev.layerfold.server;

import dev.layerfold.gc.CollectionReport;
import dev.layerfold.storage.dedup.DedupStorage;
import dev.layerfold.storage.dedup.DedupTotals;
import dev.layerfold.storage.metadata.MetadataStore;
import dev.layerfold.storage.usage.RepositoryUsage;
import dev.layerfold.storage.usage.Usage;
import dev.layerfold.storage.usage.UsageOrder;
import dev.layerfold.storage.usage.UsageTotals;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.io.IOException;
import java.net.InetAddress;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.web.annotation.WebEndpoint;
import org.springframework.lang.Nullable;
import org.springframework.stereotype.Component;
import org.springframework.web.util.HtmlUtils;

/**
 * {@code /actuator/operator}: one page an operator reads, rendered on the server as plain HTML with an
 * inline SVG chart and no script: what deduplication saves in all and per repository (with what
 * deleting each would free), the dedup backlog, where this process served pulls from, its restore
 * latency and its last collections. On the management port, for admins only (AdminFilter).
 */
@Component
@WebEndpoint(id = "operator")
class OperatorPage {

    private static final int PAGE = 50;
    private static final int CHART = 10;

    private final RepositoryUsage usage;
    private final DedupStorage dedup;
    private final MeterRegistry meters;
    private final ObjectProvider<GcRuns> gc;

    OperatorPage(RepositoryUsage usage, MetadataStore metadata, MeterRegistry meters, ObjectProvider<GcRuns> gc) {
        this.usage = usage;
        this.dedup = DedupConfiguration.storage(metadata);
        this.meters = meters;
        this.gc = gc;
    }

    @ReadOperation(produces = "text/html;charset=UTF-8")
    String page(@Nullable String order, @Nullable Integer offset) throws IOException {
        UsageOrder sort = parse(order);
        int from = offset == null || offset < 0 ? 0 : offset;
        UsageTotals totals = usage.totals();
        DedupTotals dedupTotals = dedup.dedupIndex().totals();
        List<Usage> page = usage.page(sort, from, PAGE);
        StringBuilder html = new StringBuilder(16_384);
        html.append("""
                <!doctype html><html lang="en"><head><meta charset="utf-8"><title>Layerfold: operator's page</title>
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <style>
                body{font:14px/1.4 system-ui,sans-serif;margin:1.5rem auto;max-width:72rem;color:#1d232a;padding:0 1rem}
                h1{font-size:1.4rem;margin:0}h2{font-size:1.1rem;margin:1.6rem 0 .5rem}
                .muted{color:#5b6670}.cards{display:flex;flex-wrap:wrap;gap:.8rem;margin-top:1rem}
                .card{border:1px solid #d5dbe1;border-radius:6px;padding:.6rem .9rem;min-width:10rem}
                .card b{display:block;font-size:1.3rem}table{border-collapse:collapse;width:100%}
                th,td{padding:.3rem .5rem;border-bottom:1px solid #e4e8ec;text-align:right}th:first-child,td:first-child{text-align:left}
                th a{color:inherit}svg text{font:12px system-ui,sans-serif}
                </style></head><body>
                """);
        html.append("<h1>Layerfold: operator's page</h1><p class=\"muted\">").append(esc(node())).append(", ")
                .append(esc(Instant.now().toString())).append(usage.complete() ? "" : ". Figures are being rebuilt.")
                .append("</p>");

        html.append("<h2>Saving</h2><div class=\"cards\">");
        card(html, "saved", bytes(totals.logicalBytes() - totals.storedBytes()), percent(totals.logicalBytes() - totals.storedBytes(), totals.logicalBytes()) + " of what was pushed");
        card(html, "logical", bytes(totals.logicalBytes()), "blobs held, each once, as pushed");
        card(html, "stored", bytes(totals.storedBytes()), "what they take");
        card(html, "shared", bytes(totals.sharedStoredBytes()), "stored bytes two or more repositories hold");
        card(html, "repositories", Long.toString(totals.repositories()), "");
        html.append("</div>");

        html.append("<h2>Largest repositories</h2>");
        chart(html, usage.page(UsageOrder.STORED, 0, CHART));

        html.append("<h2 id=\"repositories\">Repositories</h2><table><thead><tr>");
        header(html, "repository", UsageOrder.NAME, sort);
        header(html, "logical", UsageOrder.LOGICAL, sort);
        header(html, "stored", UsageOrder.STORED, sort);
        html.append("<th>saved</th><th>shared</th>");
        header(html, "freed if deleted", UsageOrder.FREED, sort);
        html.append("<th>pushes</th>");
        header(html, "pulls", UsageOrder.PULLS, sort);
        html.append("</tr></thead><tbody>");
        for (Usage each : page) {
            html.append("<tr><td>").append(esc(each.repository().value())).append("</td><td>").append(bytes(each.logicalBytes()))
                    .append("</td><td>").append(bytes(each.storedBytes())).append("</td><td>").append(bytes(each.savedBytes()))
                    .append("</td><td>").append(bytes(each.sharedBytes())).append("</td><td>").append(bytes(each.freedBytes()))
                    .append("</td><td>").append(each.pushes()).append("</td><td>").append(each.pulls()).append("</td></tr>");
        }
        html.append("</tbody></table><p>");
        if (from > 0) {
            html.append("<a href=\"?order=").append(name(sort)).append("&amp;offset=").append(Math.max(0, from - PAGE)).append("#repositories\">previous</a> ");
        }
        if (page.size() == PAGE) {
            html.append("<a href=\"?order=").append(name(sort)).append("&amp;offset=").append(from + PAGE).append("#repositories\">next</a>");
        }
        html.append("</p>");

        html.append("<h2>Deduplication</h2><div class=\"cards\">");
        card(html, "backlog", Long.toString(dedup.dedupQueue().backlog()), "layers queued, not yet decided");
        card(html, "deduplicated", Long.toString(dedupTotals.layersDeduplicated()), "layers stored as files and a recipe");
        long intact = dedupTotals.intactByReason().values().stream().mapToLong(Long::longValue).sum();
        card(html, "intact", Long.toString(intact), esc(dedupTotals.intactByReason().entrySet().stream()
                .map(reason -> reason.getKey() + ": " + reason.getValue()).collect(Collectors.joining(", "))));
        card(html, "unique files", Long.toString(dedupTotals.uniqueFiles()), dedupTotals.fileReferences() + " in all layers");
        html.append("</div>");

        html.append("<h2>Pulls served by this process, by source</h2><table><thead><tr><th>source</th><th>blob pulls</th></tr></thead><tbody>");
        for (Counter counter : meters.find("layerfold.predictor.requests").counters()) {
            html.append("<tr><td>").append(esc(String.valueOf(counter.getId().getTag("source")))).append("</td><td>")
                    .append((long) counter.count()).append("</td></tr>");
        }
        html.append("</tbody></table>");

        html.append("<h2>Restore latency (this process)</h2><div class=\"cards\">");
        Timer restores = meters.find("layerfold.restore.duration").timer();
        long count = restores == null ? 0 : restores.count();
        card(html, "restores", Long.toString(count), "layers rebuilt for a client");
        card(html, "mean", count == 0 ? "-" : seconds(restores.mean(TimeUnit.SECONDS)), "");
        card(html, "max", count == 0 ? "-" : seconds(restores.max(TimeUnit.SECONDS)), "recent");
        html.append("</div>");

        html.append("<h2>Last collections (this process)</h2>");
        GcRuns runs = gc.getIfAvailable();
        List<CollectionReport> recent = runs == null ? List.of() : runs.recentRuns();
        if (recent.isEmpty()) {
            html.append("<p class=\"muted\">none since this process started</p>");
        } else {
            html.append("<table><thead><tr><th>finished</th><th>took</th><th>blobs removed</th><th>reclaimed</th>"
                    + "<th>layers released</th><th>packs rewritten</th></tr></thead><tbody>");
            for (CollectionReport run : recent) {
                html.append("<tr><td>").append(esc(run.finished().toString())).append("</td><td>")
                        .append(run.finished().toEpochMilli() - run.started().toEpochMilli()).append(" ms</td><td>")
                        .append(run.blobsRemoved()).append("</td><td>").append(bytes(run.bytesReclaimed() + run.packBytesReclaimed()))
                        .append("</td><td>").append(run.layersReleased()).append("</td><td>").append(run.packsRewritten())
                        .append("</td></tr>");
            }
            html.append("</tbody></table>");
        }
        html.append("<p class=\"muted\">The same figures as JSON: <a href=\"usage\">/actuator/usage</a>, "
                + "<a href=\"dedup\">/actuator/dedup</a>, <a href=\"gc\">/actuator/gc</a>.</p></body></html>\n");
        return html.toString();
    }

    /** Two bars per repository, logical over stored, scaled to the largest logical size. */
    private static void chart(StringBuilder html, List<Usage> top) {
        if (top.isEmpty()) {
            html.append("<p class=\"muted\">no repository yet</p>");
            return;
        }
        long max = Math.max(1, top.stream().mapToLong(Usage::logicalBytes).max().orElse(1));
        int rowHeight = 34;
        int width = 900;
        int label = 220;
        int bars = width - label - 190;
        html.append("<svg role=\"img\" aria-label=\"logical and stored bytes of the largest repositories\" width=\"100%\" viewBox=\"0 0 ")
                .append(width).append(' ').append(top.size() * rowHeight + 24).append("\">");
        for (int i = 0; i < top.size(); i++) {
            Usage each = top.get(i);
            int y = i * rowHeight;
            long logical = each.logicalBytes() * bars / max;
            long stored = each.storedBytes() * bars / max;
            html.append("<text x=\"0\" y=\"").append(y + 17).append("\">").append(esc(each.repository().value())).append("</text>")
                    .append("<rect x=\"").append(label).append("\" y=\"").append(y + 4).append("\" width=\"").append(Math.max(1, logical))
                    .append("\" height=\"12\" fill=\"#b8c4d0\"><title>logical ").append(bytes(each.logicalBytes())).append("</title></rect>")
                    .append("<rect x=\"").append(label).append("\" y=\"").append(y + 17).append("\" width=\"").append(Math.max(1, stored))
                    .append("\" height=\"12\" fill=\"#2f6fad\"><title>stored ").append(bytes(each.storedBytes())).append("</title></rect>")
                    .append("<text x=\"").append(label + Math.max(logical, stored) + 6).append("\" y=\"").append(y + 24).append("\">")
                    .append(bytes(each.storedBytes())).append(" of ").append(bytes(each.logicalBytes())).append("</text>");
        }
        int legend = top.size() * rowHeight + 8;
        html.append("<rect x=\"").append(label).append("\" y=\"").append(legend).append("\" width=\"12\" height=\"12\" fill=\"#b8c4d0\"/>")
                .append("<text x=\"").append(label + 16).append("\" y=\"").append(legend + 11).append("\">logical (as pushed)</text>")
                .append("<rect x=\"").append(label + 160).append("\" y=\"").append(legend).append("\" width=\"12\" height=\"12\" fill=\"#2f6fad\"/>")
                .append("<text x=\"").append(label + 176).append("\" y=\"").append(legend + 11).append("\">stored</text></svg>");
    }

    private static void header(StringBuilder html, String title, UsageOrder order, UsageOrder current) {
        html.append("<th><a href=\"?order=").append(name(order)).append("#repositories\">").append(title)
                .append(order == current ? " &#9662;" : "").append("</a></th>");
    }

    private static void card(StringBuilder html, String title, String value, String note) {
        html.append("<div class=\"card\"><span class=\"muted\">").append(title).append("</span><b>").append(value)
                .append("</b><span class=\"muted\">").append(note).append("</span></div>");
    }

    private static UsageOrder parse(String order) {
        try {
            return order == null ? UsageOrder.STORED : UsageOrder.valueOf(order.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return UsageOrder.STORED;
        }
    }

    private static String name(UsageOrder order) {
        return order.name().toLowerCase(Locale.ROOT);
    }

    static String bytes(long bytes) {
        if (Math.abs(bytes) < 1024) {
            return bytes + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB"};
        double value = bytes;
        int unit = -1;
        while (Math.abs(value) >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return String.format(Locale.ROOT, "%.1f %s", value, units[unit]);
    }

    private static String percent(long part, long whole) {
        return whole == 0 ? "0%" : String.format(Locale.ROOT, "%.1f%%", 100.0 * part / whole);
    }

    private static String seconds(double seconds) {
        return seconds < 1 ? String.format(Locale.ROOT, "%.0f ms", seconds * 1000) : String.format(Locale.ROOT, "%.2f s", seconds);
    }

    private static String esc(String text) {
        return HtmlUtils.htmlEscape(text);
    }

    private static String node() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "this node";
        }
    }
}
