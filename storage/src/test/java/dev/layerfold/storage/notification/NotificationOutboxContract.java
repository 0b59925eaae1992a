package dev.layerfold.storage.notification;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** What every {@link NotificationOutbox} must do; run against each implementation. */
public abstract class NotificationOutboxContract {

    private static final Duration LONG = Duration.ofMinutes(5);
    private static final long ROOMY = 1_000;

    /** A fresh, empty outbox. */
    protected abstract NotificationOutbox newOutbox() throws Exception;

    /** Another handle on the outbox {@link #newOutbox()} made last, as another process would see it. */
    protected abstract NotificationOutbox sameOutbox() throws Exception;

    private static List<String> events(OutboxBatch batch) {
        return batch.entries().stream().map(OutboxEntry::event).toList();
    }

    @Test
    void eventsComeOutInTheOrderTheyWentInAndDeliveredOnesAreGone() throws Exception {
        NotificationOutbox outbox = newOutbox();
        assertThat(outbox.append("hook", List.of("e1", "e2"), ROOMY)).isZero();
        assertThat(sameOutbox().append("hook", List.of("e3 with spaces", "{\"json\":true}"), ROOMY)).isZero();
        assertThat(outbox.depth("hook")).isEqualTo(4);

        OutboxBatch first = sameOutbox().claim("hook", "a", LONG, 3).orElseThrow();
        assertThat(events(first)).containsExactly("e1", "e2", "e3 with spaces");
        assertThat(first.attempts()).isZero();
        assertThat(first.entries()).extracting(OutboxEntry::sequence).isSorted().doesNotHaveDuplicates();
        outbox.append("hook", List.of("e5"), ROOMY);
        outbox.delivered(first, "a");

        assertThat(outbox.depth("hook")).isEqualTo(2);
        OutboxBatch rest = outbox.claim("hook", "a", LONG, 10).orElseThrow();
        assertThat(events(rest)).containsExactly("{\"json\":true}", "e5");
        outbox.delivered(rest, "a");
        assertThat(sameOutbox().depth("hook")).isZero();
        assertThat(outbox.claim("hook", "a", LONG, 10)).isEmpty();
    }

    @Test
    void endpointsHaveQueuesOfTheirOwn() throws Exception {
        NotificationOutbox outbox = newOutbox();
        outbox.append("one", List.of("for one"), ROOMY);
        outbox.append("two", List.of("for two"), ROOMY);

        OutboxBatch one = outbox.claim("one", "a", LONG, 10).orElseThrow();
        assertThat(events(one)).containsExactly("for one");
        assertThat(events(outbox.claim("two", "b", LONG, 10).orElseThrow())).containsExactly("for two");
        outbox.delivered(one, "a");
        assertThat(outbox.depth("one")).isZero();
        assertThat(outbox.depth("two")).isEqualTo(1);
        assertThat(outbox.depth("never used")).isZero();
    }

    @Test
    void aFullQueueDropsItsOldestEventsAndSaysHowMany() throws Exception {
        NotificationOutbox outbox = newOutbox();
        assertThat(outbox.append("hook", List.of("e1", "e2"), 3)).isZero();
        assertThat(outbox.append("hook", List.of("e3", "e4", "e5"), 3)).isEqualTo(2);
        assertThat(outbox.append("hook", List.of("e6"), 3)).isEqualTo(1);

        assertThat(outbox.depth("hook")).isEqualTo(3);
        assertThat(events(outbox.claim("hook", "a", LONG, 10).orElseThrow())).containsExactly("e4", "e5", "e6");
    }

    @Test
    void oneAppendFillsSeveralQueuesEachBoundedByItsOwnCapacity() throws Exception {
        NotificationOutbox outbox = newOutbox();
        var dropped = outbox.append(List.of(
                new NotificationOutbox.OutboxAppend("small", List.of("a", "b", "c"), 2),
                new NotificationOutbox.OutboxAppend("large", List.of("a", "b", "c"), ROOMY),
                new NotificationOutbox.OutboxAppend("none", List.of(), ROOMY)));

        assertThat(dropped.get("small")).isEqualTo(1);
        assertThat(dropped.getOrDefault("large", 0L)).isZero();
        assertThat(events(sameOutbox().claim("small", "a", LONG, 10).orElseThrow())).containsExactly("b", "c");
        assertThat(events(sameOutbox().claim("large", "a", LONG, 10).orElseThrow())).containsExactly("a", "b", "c");
        assertThat(outbox.depth("none")).isZero();
    }

    @Test
    void aClaimedEndpointIsNobodyElsesUntilItsLeaseRunsOut() throws Exception {
        NotificationOutbox outbox = newOutbox();
        outbox.append("hook", List.of("e1"), ROOMY);
        OutboxBatch held = outbox.claim("hook", "a", LONG, 10).orElseThrow();

        assertThat(sameOutbox().claim("hook", "b", LONG, 10)).isEmpty();
        assertThat(sameOutbox().renew("hook", "b", LONG)).isFalse();
        assertThat(outbox.renew("hook", "a", LONG)).isTrue();
        assertThat(outbox.claim("hook", "a", LONG, 10)).as("its holder claims again").isPresent();
        sameOutbox().failed("hook", "b", Duration.ZERO);
        assertThat(sameOutbox().claim("hook", "b", LONG, 10)).as("a non-holder's failure changes nothing").isEmpty();
        outbox.delivered(held, "a");
        assertThat(outbox.depth("hook")).isZero();
    }

    @Test
    void aHolderThatGoesQuietLosesTheEndpointAndTheEventsComeAgain() throws Exception {
        NotificationOutbox outbox = newOutbox();
        outbox.append("hook", List.of("e1", "e2"), ROOMY);
        OutboxBatch lost = outbox.claim("hook", "crashed", Duration.ofMillis(1), 10).orElseThrow();
        TimeUnit.MILLISECONDS.sleep(20);

        OutboxBatch again = sameOutbox().claim("hook", "b", LONG, 10).orElseThrow();
        assertThat(events(again)).isEqualTo(events(lost));
        assertThat(outbox.renew("hook", "crashed", LONG)).isFalse();
        // The crashed holder comes back and reports its delivery: idempotent, and b's claim stays b's.
        outbox.delivered(lost, "crashed");
        assertThat(outbox.depth("hook")).isZero();
        assertThat(outbox.renew("hook", "b", LONG)).isTrue();
    }

    @Test
    void aFailureBacksEveryHolderOffAndCountsTheAttemptsUntilADeliverySucceeds() throws Exception {
        NotificationOutbox outbox = newOutbox();
        outbox.append("hook", List.of("e1"), ROOMY);
        outbox.claim("hook", "a", LONG, 10).orElseThrow();
        outbox.failed("hook", "a", LONG);

        assertThat(sameOutbox().claim("hook", "b", LONG, 10)).as("during the backoff").isEmpty();
        assertThat(outbox.claim("hook", "a", LONG, 10)).as("during the backoff").isEmpty();

        outbox.append("other", List.of("x"), ROOMY);
        outbox.claim("other", "a", LONG, 10).orElseThrow();
        outbox.failed("other", "a", Duration.ZERO);
        OutboxBatch second = sameOutbox().claim("other", "b", LONG, 10).orElseThrow();
        assertThat(second.attempts()).isEqualTo(1);
        sameOutbox().failed("other", "b", Duration.ZERO);
        OutboxBatch third = outbox.claim("other", "a", LONG, 10).orElseThrow();
        assertThat(third.attempts()).isEqualTo(2);
        assertThat(events(third)).containsExactly("x");

        outbox.delivered(third, "a");
        outbox.append("other", List.of("y"), ROOMY);
        assertThat(outbox.claim("other", "a", LONG, 10).orElseThrow().attempts()).isZero();
    }

    @Test
    void manyProcessesDeliverEveryEventOnceAndInOrder() throws Exception {
        NotificationOutbox outbox = newOutbox();
        List<String> appended = IntStream.range(0, 200).mapToObj(i -> "event-" + i).toList();
        for (int from = 0; from < appended.size(); from += 20) {
            outbox.append("hook", appended.subList(from, from + 20), ROOMY);
        }
        List<String> deliveredInOrder = Collections.synchronizedList(new ArrayList<>());
        ExecutorService processes = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> dispatchers = new ArrayList<>();
            for (int process = 0; process < 4; process++) {
                NotificationOutbox own = sameOutbox();
                String holder = "process-" + process;
                dispatchers.add(processes.submit(() -> {
                    while (own.depth("hook") > 0) {
                        var batch = own.claim("hook", holder, LONG, 7);
                        if (batch.isPresent()) {
                            // What a holder sends while it holds the endpoint no other holder sends.
                            deliveredInOrder.addAll(events(batch.get()));
                            own.delivered(batch.get(), holder);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> dispatcher : dispatchers) {
                dispatcher.get(2, TimeUnit.MINUTES);
            }
        } finally {
            processes.shutdownNow();
        }
        assertThat(deliveredInOrder).containsExactlyElementsOf(appended);
    }
}
