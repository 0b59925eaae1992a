package dev.layerfold.registry.api;

import dev.layerfold.registry.error.ErrorCode;
import dev.layerfold.registry.error.RegistryException;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.web.util.UriUtils;

/**
 * Parses {@code /v2/...} request paths. Repository names contain slashes, so the endpoint is found
 * from the end of the path (as the reference registry's router does) and everything before it is
 * the name.
 *
 * <p>Parses the raw request URI, before the servlet container decodes and normalises it: a name
 * written with {@code ..} or percent-escapes is refused as NAME_INVALID rather than silently
 * resolved to another repository.
 */
final class RoutePath {

    private RoutePath() {
    }

    static Route parse(String rawPath) {
        if (rawPath.equals("/v2") || rawPath.equals("/v2/")) {
            return new Route.Base();
        }
        if (!rawPath.startsWith("/v2/")) {
            throw unknownEndpoint(rawPath);
        }
        String rest = rawPath.substring("/v2/".length());
        if (rest.equals("_catalog")) {
            return new Route.Catalog();
        }
        List<String> segments = Arrays.asList(rest.split("/", -1));
        int last = segments.size() - 1;
        if (last >= 2 && segments.get(last - 1).equals("tags") && segments.get(last).equals("list")) {
            return new Route.TagList(name(segments, last - 1));
        }
        if (last >= 3 && segments.get(last - 2).equals("blobs") && segments.get(last - 1).equals("uploads")) {
            RepositoryName name = name(segments, last - 2);
            String uploadId = segments.get(last);
            return uploadId.isEmpty() ? new Route.UploadStart(name) : new Route.Upload(name, decode(uploadId));
        }
        if (last >= 1) {
            String endpoint = segments.get(last - 1);
            String argument = segments.get(last);
            switch (endpoint) {
                case "blobs" -> {
                    RepositoryName name = name(segments, last - 1);
                    return argument.equals("uploads")
                            ? new Route.UploadStart(name)
                            : new Route.Blob(name, Digest.parse(decode(argument)));
                }
                case "manifests" -> {
                    return new Route.Manifest(name(segments, last - 1), decode(argument));
                }
                case "referrers" -> {
                    RepositoryName name = name(segments, last - 1);
                    return new Route.Referrers(name, Digest.parse(decode(argument)));
                }
                default -> {
                }
            }
        }
        throw unknownEndpoint(rawPath);
    }

    /** The name is taken raw: percent-escapes are not in the name grammar, so they fail validation. */
    private static RepositoryName name(List<String> segments, int endExclusive) {
        return RepositoryName.of(String.join("/", segments.subList(0, endExclusive)));
    }

    /** Tags, digests and upload ids may arrive percent-encoded (some clients escape ':'). */
    private static String decode(String segment) {
        try {
            return UriUtils.decode(segment, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException malformedEscape) {
            return segment; // validated by the caller, which then names the offending text
        }
    }

    private static RegistryException unknownEndpoint(String rawPath) {
        return RegistryException.of(ErrorCode.UNSUPPORTED, "no registry endpoint at " + rawPath
                        + "; the API serves /v2/, /v2/_catalog and /v2/<name>/{blobs,blobs/uploads,manifests,tags/list,referrers}/...")
                .withStatus(HttpStatus.NOT_FOUND);
    }
}
