package dev.layerfold.registry.proxy;

import io.micrometer.core.instrument.MeterRegistry;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One upstream registry, spoken to over the distribution API: redirects followed by hand (a bounded
 * number, and never carrying our credentials to another host), Basic or bearer-token sign-in as its
 * {@code WWW-Authenticate} challenge asks (Docker Hub's token flow), and its 429s respected: once it
 * asked to be left alone, nothing is sent to it until its {@code Retry-After} has passed.
 *
 * <p>{@link HttpURLConnection} rather than the JDK's HttpClient: its read timeout bounds every read of a
 * body, so a stalled upstream fails the pull after {@code read-timeout} instead of holding it forever.
 */
public final class Upstream {

    /** Answers the upstream may leave us alone for at most this long, whatever its Retry-After says. */
    private static final Duration MAX_RETRY_AFTER = Duration.ofHours(1);
    private static final Duration DEFAULT_RETRY_AFTER = Duration.ofMinutes(1);
    /** A token response is a few KB; more is not a token server. */
    private static final int MAX_TOKEN_RESPONSE = 64 * 1024;
    private static final int MAX_CACHED_AUTHORIZATIONS = 10_000;
    private static final Pattern CHALLENGE_PARAMETER = Pattern.compile("(\\w+)=\"([^\"]*)\"");

    private final ProxyProperties.Upstream settings;
    private final Duration connectTimeout;
    private final Duration readTimeout;
    private final int maxRedirects;
    private final UpstreamMetrics metrics;
    private final Clock clock;
    private final JsonMapper json = new JsonMapper();
    /** The Authorization header to send per upstream repository (bearer tokens are scoped to one). */
    private final Map<String, Authorization> authorizations = new ConcurrentHashMap<>();
    private volatile Instant quietUntil = Instant.MIN;

    private record Authorization(String header, Instant expires) {
    }

    Upstream(ProxyProperties.Upstream settings, ProxyProperties proxy, MeterRegistry meters, Clock clock) {
        this.settings = settings;
        this.connectTimeout = proxy.connectTimeout();
        this.readTimeout = proxy.readTimeout();
        this.maxRedirects = proxy.maxRedirects();
        this.metrics = new UpstreamMetrics(meters, settings.prefix());
        this.clock = clock;
    }

    /** The name it is known by in metrics and messages: its prefix. */
    public String name() {
        return settings.prefix();
    }

    String host() {
        return settings.url().getHost();
    }

    public Duration tagTtl() {
        return settings.tagTtl();
    }

    /** Counts a tag served from the cache although its TTL passed, because the upstream failed. */
    public void staleServed() {
        metrics.staleServed();
    }

    /** Counts a failure found by the caller (a digest mismatch, an oversized manifest) and returns it to throw. */
    public UpstreamException failure(UpstreamException.Reason reason, String message) {
        metrics.failure(reason);
        return new UpstreamException(name(), reason, message);
    }

    /**
     * Sends {@code method} (GET or HEAD) for {@code /v2/<repository>/<path>}, signing in if challenged.
     * A 2xx or 404 is returned for the caller to read and close; anything else is thrown, counted.
     *
     * @param kind what is asked for ({@code manifest}, {@code blob}): the {@code kind} label of the requests metric
     */
    public Response send(String method, String repository, String path, String kind, List<String> accept)
            throws UpstreamException {
        return sendTo(method, repository, "/v2/" + repository + "/" + path, kind, accept);
    }

    /**
     * Sends a GET for {@code /v2/_catalog<query>}, the upstream's list of repositories (signing in for the
     * scope its challenge names), like {@link #send}: a 2xx or 404 is returned, anything else thrown.
     */
    public Response catalog(String query) throws UpstreamException {
        return sendTo("GET", "_catalog", "/v2/_catalog" + query, "catalog", List.of());
    }

    /** {@code repository} keys the sign-in (a token is scoped to it); {@code apiPath} is what is asked for. */
    private Response sendTo(String method, String repository, String apiPath, String kind, List<String> accept)
            throws UpstreamException {
        Instant now = clock.instant();
        if (now.isBefore(quietUntil)) {
            throw counted(UpstreamException.Reason.RATE_LIMITED, "asked not to be sent requests until " + quietUntil,
                    Optional.of(Duration.between(now, quietUntil)), null);
        }
        URI uri = URI.create(trimmedUrl() + apiPath);
        metrics.request(kind);
        Optional<String> authorization = cachedAuthorization(repository);
        Response response = follow(method, uri, accept, authorization);
        if (response.status() == 401) {
            String challenge = response.header("WWW-Authenticate").orElse("");
            response.close();
            authorization = Optional.of(authorize(repository, challenge));
            metrics.request(kind);
            response = follow(method, uri, accept, authorization);
        }
        int status = response.status();
        if (status / 100 == 2 || status == 404) {
            return response;
        }
        Optional<String> retryAfter = response.header("Retry-After");
        response.close();
        if (status == 429) {
            Duration wait = retryAfter.flatMap(this::parseRetryAfter).orElse(DEFAULT_RETRY_AFTER);
            wait = wait.compareTo(MAX_RETRY_AFTER) > 0 ? MAX_RETRY_AFTER : wait;
            quietUntil = clock.instant().plus(wait);
            throw counted(UpstreamException.Reason.RATE_LIMITED, "rate-limited us (429); retry after " + wait.toSeconds()
                    + " s", Optional.of(wait), null);
        }
        if (status == 401 || status == 403) {
            authorizations.remove(repository);
            throw counted(UpstreamException.Reason.UNAUTHORIZED, "refused access to " + repository + " (" + status
                    + "); check layerfold.proxy.upstreams[].username and password", Optional.empty(), null);
        }
        throw counted(UpstreamException.Reason.STATUS, "answered " + method + " " + apiPath + " with " + status,
                Optional.empty(), null);
    }

    private String trimmedUrl() {
        String url = settings.url().toString();
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    /** Follows redirects by hand: at most {@code max-redirects}, credentials only to the upstream's own origin. */
    private Response follow(String method, URI uri, List<String> accept, Optional<String> authorization)
            throws UpstreamException {
        URI current = uri;
        for (int hop = 0; hop <= maxRedirects; hop++) {
            HttpURLConnection connection;
            int status;
            try {
                connection = (HttpURLConnection) current.toURL().openConnection();
                connection.setInstanceFollowRedirects(false);
                connection.setUseCaches(false);
                connection.setConnectTimeout(Math.toIntExact(connectTimeout.toMillis()));
                connection.setReadTimeout(Math.toIntExact(readTimeout.toMillis()));
                connection.setRequestMethod(method);
                connection.setRequestProperty("User-Agent", "layerfold-pull-through");
                if (!accept.isEmpty()) {
                    connection.setRequestProperty("Accept", String.join(", ", accept));
                }
                if (authorization.isPresent() && sameOrigin(current, settings.url())) {
                    connection.setRequestProperty("Authorization", authorization.get());
                }
                status = connection.getResponseCode();
            } catch (SocketTimeoutException e) {
                throw counted(UpstreamException.Reason.TIMEOUT, "did not answer within " + readTimeout.toSeconds() + " s",
                        Optional.empty(), e);
            } catch (IOException | IllegalArgumentException e) {
                throw counted(UpstreamException.Reason.UNREACHABLE, "could not be reached: " + e.getMessage(),
                        Optional.empty(), e);
            }
            if (status < 300 || status >= 400 || status == 304) {
                return new Response(connection, status);
            }
            String location = connection.getHeaderField("Location");
            connection.disconnect();
            if (location == null) {
                throw counted(UpstreamException.Reason.STATUS, "redirected (" + status + ") without a Location",
                        Optional.empty(), null);
            }
            try {
                current = current.resolve(location);
            } catch (IllegalArgumentException e) {
                throw counted(UpstreamException.Reason.STATUS, "redirected to an invalid Location", Optional.empty(), e);
            }
        }
        throw counted(UpstreamException.Reason.REDIRECTS, "redirected more than " + maxRedirects + " times",
                Optional.empty(), null);
    }

    private static boolean sameOrigin(URI a, URI b) {
        return Objects.equals(a.getScheme(), b.getScheme()) && Objects.equals(a.getHost(), b.getHost())
                && port(a) == port(b);
    }

    private static int port(URI uri) {
        return uri.getPort() >= 0 ? uri.getPort() : "https".equals(uri.getScheme()) ? 443 : 80;
    }

    private Optional<String> cachedAuthorization(String repository) {
        Authorization cached = authorizations.get(repository);
        if (cached != null && clock.instant().isBefore(cached.expires())) {
            return Optional.of(cached.header());
        }
        return basic();
    }

    private Optional<String> basic() {
        if (settings.username() == null) {
            return Optional.empty();
        }
        return Optional.of("Basic " + Base64.getEncoder().encodeToString(
                (settings.username() + ":" + settings.password()).getBytes(StandardCharsets.UTF_8)));
    }

    /** Answers a 401's challenge: Basic with the configured user, or a bearer token from the named realm. */
    private String authorize(String repository, String challenge) throws UpstreamException {
        String scheme = challenge.split(" ", 2)[0].trim();
        if (scheme.equalsIgnoreCase("Basic")) {
            return basic().orElseThrow(() -> counted(UpstreamException.Reason.UNAUTHORIZED,
                    "asks for a sign-in and none is configured", Optional.empty(), null));
        }
        if (!scheme.equalsIgnoreCase("Bearer")) {
            throw counted(UpstreamException.Reason.UNAUTHORIZED, "asks for an unsupported sign-in: " + scheme,
                    Optional.empty(), null);
        }
        Map<String, String> parameters = new LinkedHashMap<>();
        Matcher matcher = CHALLENGE_PARAMETER.matcher(challenge);
        while (matcher.find()) {
            parameters.put(matcher.group(1).toLowerCase(java.util.Locale.ROOT), matcher.group(2));
        }
        String realm = parameters.get("realm");
        if (realm == null) {
            throw counted(UpstreamException.Reason.UNAUTHORIZED, "sent a bearer challenge without a realm",
                    Optional.empty(), null);
        }
        String scope = parameters.getOrDefault("scope", "repository:" + repository + ":pull");
        StringBuilder query = new StringBuilder(realm).append(realm.contains("?") ? '&' : '?');
        if (parameters.containsKey("service")) {
            query.append("service=").append(URLEncoder.encode(parameters.get("service"), StandardCharsets.UTF_8)).append('&');
        }
        query.append("scope=").append(URLEncoder.encode(scope, StandardCharsets.UTF_8));
        URI tokenUri;
        try {
            tokenUri = URI.create(query.toString());
        } catch (IllegalArgumentException e) {
            throw counted(UpstreamException.Reason.UNAUTHORIZED, "sent an invalid token realm", Optional.empty(), e);
        }
        metrics.request("token");
        // The realm is the upstream's choice (auth.docker.io for Docker Hub): the user's password goes to it, as Docker sends it.
        JsonNode answer;
        try (Response response = followToRealm(tokenUri)) {
            if (response.status() != 200) {
                throw counted(UpstreamException.Reason.UNAUTHORIZED, "its token server answered " + response.status(),
                        Optional.empty(), null);
            }
            byte[] body = response.body().readNBytes(MAX_TOKEN_RESPONSE + 1);
            if (body.length > MAX_TOKEN_RESPONSE) {
                throw counted(UpstreamException.Reason.TOO_LARGE, "its token server sent over " + MAX_TOKEN_RESPONSE + " bytes",
                        Optional.empty(), null);
            }
            answer = json.readTree(body);
        } catch (UpstreamException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw counted(UpstreamException.Reason.UNAUTHORIZED, "its token server failed: " + e.getMessage(),
                    Optional.empty(), e);
        }
        String token = answer.path("token").asString("");
        if (token.isEmpty()) {
            token = answer.path("access_token").asString("");
        }
        if (token.isEmpty()) {
            throw counted(UpstreamException.Reason.UNAUTHORIZED, "its token server sent no token", Optional.empty(), null);
        }
        // Renewed a little early; 60 s is the spec's default lifetime.
        long lifetime = Math.max(10, answer.path("expires_in").asLong(60) - 10);
        String header = "Bearer " + token;
        if (authorizations.size() >= MAX_CACHED_AUTHORIZATIONS) {
            authorizations.clear();
        }
        authorizations.put(repository, new Authorization(header, clock.instant().plusSeconds(lifetime)));
        return header;
    }

    /** The token request carries the configured user (Basic) to the realm the upstream named. */
    private Response followToRealm(URI tokenUri) throws UpstreamException {
        URI current = tokenUri;
        Optional<String> credentials = basic();
        for (int hop = 0; hop <= maxRedirects; hop++) {
            try {
                HttpURLConnection connection = (HttpURLConnection) current.toURL().openConnection();
                connection.setInstanceFollowRedirects(false);
                connection.setConnectTimeout(Math.toIntExact(connectTimeout.toMillis()));
                connection.setReadTimeout(Math.toIntExact(readTimeout.toMillis()));
                if (credentials.isPresent() && hop == 0) {
                    connection.setRequestProperty("Authorization", credentials.get());
                }
                int status = connection.getResponseCode();
                String location = connection.getHeaderField("Location");
                if (status / 100 != 3 || location == null) {
                    return new Response(connection, status);
                }
                connection.disconnect();
                current = current.resolve(location);
            } catch (IOException | IllegalArgumentException e) {
                throw counted(UpstreamException.Reason.UNAUTHORIZED, "its token server could not be reached: "
                        + e.getMessage(), Optional.empty(), e);
            }
        }
        throw counted(UpstreamException.Reason.REDIRECTS, "its token server redirected more than " + maxRedirects + " times",
                Optional.empty(), null);
    }

    private Optional<Duration> parseRetryAfter(String value) {
        try {
            return Optional.of(Duration.ofSeconds(Math.max(0, Long.parseLong(value.trim()))));
        } catch (NumberFormatException notSeconds) {
            try {
                Instant at = ZonedDateTime.parse(value.trim(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
                return Optional.of(Duration.between(clock.instant(), at)).filter(d -> !d.isNegative());
            } catch (DateTimeParseException notADate) {
                return Optional.empty();
            }
        }
    }

    private UpstreamException counted(UpstreamException.Reason reason, String message, Optional<Duration> retryAfter,
                                      Throwable cause) {
        metrics.failure(reason);
        return new UpstreamException(name(), reason, message, retryAfter, cause);
    }

    @Override
    public String toString() {
        return settings.toString();
    }

    /**
     * An upstream's answer, its body read in a stream that counts the bytes received and turns a stalled
     * or broken body into a counted {@link UpstreamException}. The caller closes it.
     */
    public final class Response implements AutoCloseable {

        private final HttpURLConnection connection;
        private final int status;
        private InputStream body;

        private Response(HttpURLConnection connection, int status) {
            this.connection = connection;
            this.status = status;
        }

        public int status() {
            return status;
        }

        public Optional<String> header(String name) {
            return Optional.ofNullable(connection.getHeaderField(name));
        }

        /** The declared length of the body, or -1. */
        public long contentLength() {
            return connection.getContentLengthLong();
        }

        public InputStream body() throws IOException {
            if (body == null) {
                InputStream raw = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
                body = new Counted(raw == null ? InputStream.nullInputStream() : raw);
            }
            return body;
        }

        /** Drops the connection rather than reading the rest: after a failure, or a body not wanted. */
        public void abort() {
            connection.disconnect();
        }

        @Override
        public void close() {
            try {
                if (body != null) {
                    body.close();
                } else if (status >= 400 && connection.getErrorStream() != null) {
                    connection.getErrorStream().close();
                } else if (status < 400) {
                    connection.getInputStream().close();
                }
            } catch (IOException e) {
                connection.disconnect();
            }
        }

        private final class Counted extends FilterInputStream {

            Counted(InputStream in) {
                super(in);
            }

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] buffer, int offset, int length) throws IOException {
                int read;
                try {
                    read = super.read(buffer, offset, length);
                } catch (UpstreamException e) {
                    throw e;
                } catch (SocketTimeoutException e) {
                    throw counted(UpstreamException.Reason.TIMEOUT, "sent no byte of the body for "
                            + readTimeout.toSeconds() + " s", Optional.empty(), e);
                } catch (IOException e) {
                    throw counted(UpstreamException.Reason.TRUNCATED, "broke off the body: " + e.getMessage(),
                            Optional.empty(), e);
                }
                if (read > 0) {
                    metrics.received(read);
                }
                return read;
            }
        }
    }
}
