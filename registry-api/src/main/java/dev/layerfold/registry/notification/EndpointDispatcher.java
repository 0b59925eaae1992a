package dev.layerfold.registry.notification;

import dev.layerfold.storage.notification.NotificationOutbox;
import dev.layerfold.storage.notification.OutboxBatch;
import dev.layerfold.storage.notification.OutboxEntry;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers one endpoint's events from the outbox, oldest first, in envelopes of up to
 * {@code eventsPerRequest}: claims the endpoint's head (one holder across every process), POSTs it,
 * and removes it once the endpoint answers 2xx. Anything else (an error status, a timeout, a refused
 * connection) is retried after the endpoint's backoff, shared by every process through the outbox, and
 * later events wait behind the failed ones: delivery is in order and at least once. It runs on a thread
 * of its own, so a dead or slow endpoint holds up only its own events.
 */
final class EndpointDispatcher implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EndpointDispatcher.class);

    private final NotificationProperties.Endpoint endpoint;
    private final NotificationOutbox outbox;
    private final EventEncoder encoder;
    private final EndpointMeters meters;
    private final String holder;
    private final Duration pollInterval;
    private final int eventsPerRequest;
    private final HttpClient http;
    private final Semaphore wake = new Semaphore(0);
    private final Thread thread;
    private volatile boolean running = true;
    /** Whether the last delivery failed, to log a failing endpoint once rather than at every retry. */
    private boolean failing;
    /** When this process's last failed delivery may be retried, on {@link System#nanoTime()}. */
    private long retryAtNanos = System.nanoTime();

    EndpointDispatcher(NotificationProperties.Endpoint endpoint, NotificationOutbox outbox, EventEncoder encoder,
                       EndpointMeters meters, String holder, Duration pollInterval, int eventsPerRequest) {
        this.endpoint = endpoint;
        this.outbox = outbox;
        this.encoder = encoder;
        this.meters = meters;
        this.holder = holder;
        this.pollInterval = pollInterval;
        this.eventsPerRequest = eventsPerRequest;
        this.http = HttpClient.newBuilder().connectTimeout(endpoint.timeout())
                .followRedirects(HttpClient.Redirect.NEVER).build();
        this.thread = Thread.ofVirtual().name("notification-" + endpoint.name()).unstarted(this::run);
    }

    void start() {
        thread.start();
    }

    /** Events for the endpoint were just queued by this process: look now rather than at the next poll. */
    void wake() {
        wake.release();
    }

    /** Long enough for a request that takes the whole timeout, so a working holder never loses its claim. */
    private Duration lease() {
        return endpoint.timeout().multipliedBy(2).plusSeconds(10);
    }

    private void run() {
        while (running) {
            try {
                long backingOff = retryAtNanos - System.nanoTime();
                if (backingOff > 0) {
                    // This process's own failure: no claim can succeed before the retry time, so
                    // events queued meanwhile need not wake it.
                    TimeUnit.NANOSECONDS.sleep(Math.min(backingOff, pollInterval.toNanos()));
                    continue;
                }
                Optional<OutboxBatch> batch = outbox.claim(endpoint.name(), holder, lease(), eventsPerRequest);
                if (batch.isPresent()) {
                    deliver(batch.get());
                } else {
                    wake.tryAcquire(pollInterval.toMillis(), TimeUnit.MILLISECONDS);
                    wake.drainPermits();
                }
            } catch (InterruptedException stopping) {
                return;
            } catch (IOException | RuntimeException e) {
                log.warn("notification endpoint {}: the outbox cannot be read: {}", endpoint.name(), e.toString());
                try {
                    TimeUnit.MILLISECONDS.sleep(pollInterval.toMillis());
                } catch (InterruptedException stopping) {
                    return;
                }
            }
        }
    }

    private void deliver(OutboxBatch batch) throws IOException, InterruptedException {
        List<String> events = batch.entries().stream().map(OutboxEntry::event).toList();
        byte[] body = EventEncoder.envelope(events);
        HttpRequest.Builder request = HttpRequest.newBuilder(endpoint.url()).timeout(endpoint.timeout())
                .header("Content-Type", EventEncoder.ENVELOPE_MEDIA_TYPE)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        endpoint.headers().forEach(request::header);
        if (endpoint.secret() != null) {
            request.header(Signature.HEADER, Signature.of(endpoint.secret(), body));
        }
        String failure;
        try {
            HttpResponse<Void> response = http.send(request.build(), HttpResponse.BodyHandlers.discarding());
            if (response.statusCode() / 100 == 2) {
                outbox.delivered(batch, holder);
                meters.delivered().increment(events.size());
                Instant now = Instant.now();
                for (String event : events) {
                    Instant at = encoder.timestamp(event);
                    if (at != null) {
                        meters.latency().record(Duration.between(at, now).isNegative() ? Duration.ZERO : Duration.between(at, now));
                    }
                }
                if (failing) {
                    log.info("notification endpoint {} takes events again", endpoint.name());
                    failing = false;
                }
                return;
            }
            failure = "it answered " + response.statusCode();
        } catch (IOException e) {
            failure = e.toString();
        } catch (IllegalArgumentException e) { // a header the client refuses to send
            failure = e.getMessage();
        }
        meters.failed().increment(events.size());
        Duration retry = endpoint.retryAfter(batch.attempts() + 1);
        outbox.failed(endpoint.name(), holder, retry);
        retryAtNanos = System.nanoTime() + retry.toNanos();
        if (!failing) {
            log.warn("notification endpoint {} ({}) did not take {} event(s): {}; retrying with backoff, next in {}",
                    endpoint.name(), endpoint.printableUrl(), events.size(), failure, retry);
            failing = true;
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.interrupt();
        thread.join(endpoint.timeout().plusSeconds(5).toMillis());
        http.shutdownNow();
    }
}
