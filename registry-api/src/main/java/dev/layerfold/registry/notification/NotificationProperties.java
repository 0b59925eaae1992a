package dev.layerfold.registry.notification;

import dev.layerfold.registry.api.RegistryEvent;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code layerfold.notifications.*}: the webhook endpoints told of pushes, pulls and deletes (see
 * docs/notifications.md). Every property also comes from the environment, e.g.
 * {@code LAYERFOLD_NOTIFICATIONS_ENDPOINTS_0_URL}.
 *
 * @param endpoints       the receivers; none by default, and then nothing is queued
 * @param pollInterval    how often an idle dispatcher looks for events other processes queued (its own
 *                        process wakes it at once)
 * @param eventsPerRequest the most events one request to an endpoint carries
 * @param pullBuffer      pull events held in memory until they are written to the outbox in a batch;
 *                        beyond it, pull events are dropped and counted
 */
@ConfigurationProperties("layerfold.notifications")
public record NotificationProperties(
        @DefaultValue List<Endpoint> endpoints,
        @DefaultValue("1s") Duration pollInterval,
        @DefaultValue("100") int eventsPerRequest,
        @DefaultValue("4096") int pullBuffer) {

    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");

    public NotificationProperties {
        endpoints = List.copyOf(endpoints);
        Set<String> names = new HashSet<>();
        for (int i = 0; i < endpoints.size(); i++) {
            Endpoint endpoint = endpoints.get(i);
            if (!names.add(endpoint.name())) {
                throw new IllegalArgumentException("layerfold.notifications.endpoints[" + i + "].name " + endpoint.name()
                        + " is the name of another endpoint too; each endpoint needs a name of its own");
            }
        }
        if (pollInterval.isNegative() || pollInterval.isZero()) {
            throw new IllegalArgumentException("layerfold.notifications.poll-interval must be positive, not " + pollInterval);
        }
        if (eventsPerRequest < 1) {
            throw new IllegalArgumentException("layerfold.notifications.events-per-request must be 1 or more, not " + eventsPerRequest);
        }
        if (pullBuffer < 1) {
            throw new IllegalArgumentException("layerfold.notifications.pull-buffer must be 1 or more, not " + pullBuffer);
        }
    }

    /**
     * One receiver of events, as distribution's {@code notifications.endpoints} configures one.
     *
     * @param name              names the endpoint in metrics and logs and keys its queue in the outbox:
     *                          lower-case letters, digits, '.', '_' and '-'
     * @param url               where events are POSTed
     * @param headers           added to every request (an {@code Authorization} for the receiver, say);
     *                          never logged
     * @param timeout           for connecting and for the whole answer
     * @param threshold         failed deliveries retried after {@code backoff} before the wait starts doubling
     * @param backoff           the wait before retrying a failed delivery
     * @param maxBackoff        the longest wait between retries
     * @param ignoredMediaTypes events about content of these media types are not sent here
     * @param ignoredActions    events of these actions ({@code push}, {@code pull}, {@code delete},
     *                          {@code mirror}) are not sent here
     * @param secret            signs every request body (HMAC-SHA256, {@code X-Layerfold-Signature});
     *                          unset: unsigned. Never logged
     * @param maxQueued         events held for the endpoint while it does not take them; beyond it the
     *                          oldest are dropped and counted
     */
    public record Endpoint(
            String name,
            URI url,
            @DefaultValue Map<String, String> headers,
            @DefaultValue("5s") Duration timeout,
            @DefaultValue("3") int threshold,
            @DefaultValue("1s") Duration backoff,
            @DefaultValue("5m") Duration maxBackoff,
            @DefaultValue List<String> ignoredMediaTypes,
            @DefaultValue List<String> ignoredActions,
            String secret,
            @DefaultValue("100000") long maxQueued) {

        public Endpoint {
            if (name == null || !NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("layerfold.notifications.endpoints[].name must be 1 to 64 lower-case "
                        + "letters, digits, '.', '_' or '-', not " + name);
            }
            if (url == null || !("http".equals(url.getScheme()) || "https".equals(url.getScheme())) || url.getHost() == null) {
                throw new IllegalArgumentException("layerfold.notifications endpoint " + name + " needs an http or https url, not " + url);
            }
            headers = Map.copyOf(headers);
            for (Duration duration : List.of(timeout, backoff, maxBackoff)) {
                if (duration.isNegative() || duration.isZero()) {
                    throw new IllegalArgumentException("layerfold.notifications endpoint " + name
                            + ": timeout, backoff and max-backoff must be positive, not " + duration);
                }
            }
            if (maxBackoff.compareTo(backoff) < 0) {
                throw new IllegalArgumentException("layerfold.notifications endpoint " + name + ": max-backoff (" + maxBackoff
                        + ") is shorter than backoff (" + backoff + ")");
            }
            if (threshold < 0 || maxQueued < 1) {
                throw new IllegalArgumentException("layerfold.notifications endpoint " + name
                        + ": threshold must be 0 or more and max-queued 1 or more");
            }
            ignoredMediaTypes = List.copyOf(ignoredMediaTypes);
            ignoredActions = ignoredActions.stream().map(action -> action.toLowerCase(Locale.ROOT)).toList();
            Set<String> actions = Arrays.stream(RegistryEvent.Action.values()).map(RegistryEvent.Action::wireName)
                    .collect(Collectors.toSet());
            for (String action : ignoredActions) {
                if (!actions.contains(action)) {
                    throw new IllegalArgumentException("layerfold.notifications endpoint " + name + ": ignored action "
                            + action + " is none of " + actions);
                }
            }
            if (secret != null && secret.isEmpty()) {
                secret = null;
            }
        }

        boolean wants(RegistryEvent event) {
            return !ignoredActions.contains(event.action().wireName())
                    && event.mediaType().map(type -> !ignoredMediaTypes.contains(type)).orElse(true);
        }

        /** The wait before the next attempt, after {@code failures} failed ones in a row. */
        Duration retryAfter(int failures) {
            int doublings = Math.min(30, Math.max(0, failures - threshold));
            Duration wait = backoff.multipliedBy(1L << doublings);
            return wait.compareTo(maxBackoff) > 0 || wait.isNegative() ? maxBackoff : wait;
        }

        /** The url without credentials in it, for logs. */
        String printableUrl() {
            return url.getUserInfo() == null ? url.toString()
                    : url.getScheme() + "://(credentials)@" + url.getHost() + (url.getPort() < 0 ? "" : ":" + url.getPort())
                    + url.getRawPath();
        }

        /** Without the secret and the headers' values, which may hold credentials. */
        @Override
        public String toString() {
            return "Endpoint[name=" + name + ", url=" + printableUrl() + ", headers=" + headers.keySet() + ", timeout=" + timeout
                    + ", threshold=" + threshold + ", backoff=" + backoff + ", maxBackoff=" + maxBackoff
                    + ", ignoredMediaTypes=" + ignoredMediaTypes + ", ignoredActions=" + ignoredActions
                    + ", secret=" + (secret == null ? "none" : "(set)") + ", maxQueued=" + maxQueued + "]";
        }
    }
}
