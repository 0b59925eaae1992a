package dev.layerfold.trace;

import java.time.Instant;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One request of a registry trace, with the fields of the IBM Cloud registry traces (Anwar et al.,
 * FAST '18) that a replay needs.
 *
 * @param method {@code http.request.method}
 * @param uri {@code http.request.uri}, e.g. {@code /v2/team/app/manifests/v3} (the published traces
 *     drop the leading slash; both are read)
 * @param remoteAddr {@code http.request.remoteaddr}: who sent it (the traces anonymize it)
 * @param written {@code http.response.written}: bytes of the response (of the request's body for a PUT)
 * @param timestamp {@code timestamp}
 */
public record TraceRecord(String method, String uri, String remoteAddr, long written, Instant timestamp) {

    private static final Pattern PATH = Pattern.compile("^/?v2/(.+)/(manifests|blobs)/([^/?]+)");

    /** What a request names: a manifest or a blob of a repository, if it names either. */
    public record Target(String repository, boolean manifest, String reference) {
    }

    public Optional<Target> target() {
        Matcher matcher = PATH.matcher(uri);
        if (!matcher.find() || matcher.group(3).equals("uploads")) {
            return Optional.empty();
        }
        return Optional.of(new Target(matcher.group(1), matcher.group(2).equals("manifests"), matcher.group(3)));
    }

    public boolean isGet() {
        return method.equalsIgnoreCase("GET");
    }
}
