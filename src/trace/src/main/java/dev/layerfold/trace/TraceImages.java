package dev.layerfold.trace;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The images a trace pulls and pushes, rebuilt from the trace alone, so that a registry can be given
 * them before the trace is replayed. A trace names no manifest's layers: an image's layers are taken to be
 * the blobs its pullers GET in the same repository after a GET of its manifest (until their next
 * manifest GET, within {@link #WINDOW_SECONDS}), and those its pusher uploaded just before its PUT.
 * Blob sizes are the bytes the trace says their GETs or PUTs moved.
 */
public final class TraceImages {

    /** How long after a manifest GET a blob GET of the same client and repository is taken as its layer. */
    static final long WINDOW_SECONDS = 30;

    private static final Pattern UPLOAD = Pattern.compile("^/?v2/(.+)/blobs/uploads/[^?]*\\?(?:.*&)?digest=([^&]+)");

    /** An image: its repository, the reference its manifest is asked for by, its layers in first-seen order. */
    public record Image(String repository, String reference, Set<String> layers) {
    }

    private final Map<String, Image> images = new LinkedHashMap<>();
    private final Map<String, Long> sizes = new HashMap<>();

    private TraceImages() {
    }

    public static TraceImages of(List<TraceRecord> records) {
        TraceImages found = new TraceImages();
        Map<String, TraceRecord> lastManifestGet = new HashMap<>();
        Map<String, List<String>> uploads = new HashMap<>();
        for (TraceRecord record : records) {
            Optional<String[]> upload = upload(record);
            if (upload.isPresent()) {
                found.sizes.merge(upload.get()[1], record.written(), Math::max);
                uploads.computeIfAbsent(record.remoteAddr() + " " + upload.get()[0], k -> new ArrayList<>()).add(upload.get()[1]);
                continue;
            }
            Optional<TraceRecord.Target> target = record.target();
            if (target.isEmpty()) {
                continue;
            }
            TraceRecord.Target named = target.get();
            String client = record.remoteAddr() + " " + named.repository();
            if (named.manifest()) {
                Image image = found.image(named.repository(), named.reference());
                if (record.isGet()) {
                    lastManifestGet.put(client, record);
                } else if (record.method().equalsIgnoreCase("PUT")) {
                    image.layers().addAll(uploads.getOrDefault(client, List.of()));
                    uploads.remove(client);
                }
            } else if (record.isGet()) {
                found.sizes.merge(named.reference(), record.written(), Math::max);
                TraceRecord manifest = lastManifestGet.get(client);
                if (manifest != null && manifest.timestamp().plusSeconds(WINDOW_SECONDS).isAfter(record.timestamp())) {
                    found.image(named.repository(), manifest.target().orElseThrow().reference()).layers().add(named.reference());
                }
            }
        }
        return found;
    }

    private static Optional<String[]> upload(TraceRecord record) {
        if (!record.method().equalsIgnoreCase("PUT")) {
            return Optional.empty();
        }
        Matcher matcher = UPLOAD.matcher(record.uri());
        return matcher.find() ? Optional.of(new String[] {matcher.group(1), matcher.group(2)}) : Optional.empty();
    }

    private Image image(String repository, String reference) {
        return images.computeIfAbsent(repository + " " + reference,
                key -> new Image(repository, reference, new LinkedHashSet<>()));
    }

    public Optional<Image> image(TraceRecord.Target manifest) {
        return Optional.ofNullable(images.get(manifest.repository() + " " + manifest.reference()));
    }

    public List<Image> all() {
        return List.copyOf(images.values());
    }

    /** The size of a blob of the trace; 1 KiB if the trace never moved it. */
    public long size(String blob) {
        return sizes.getOrDefault(blob, 1024L);
    }
}
