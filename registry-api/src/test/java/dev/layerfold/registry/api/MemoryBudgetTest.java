package dev.layerfold.registry.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layerfold.registry.error.ErrorCode;
import dev.layerfold.registry.error.RegistryException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class MemoryBudgetTest {

    private static final long ONE = MemoryBudget.WAITER_HEAP;

    @Test
    @Timeout(30)
    void whenAsManyRequestsWaitAsFitInHalfTheBudgetTheNextIsRefusedAtOnceAndTheWaitersGetTheirTurn() throws Exception {
        // Room for four; waiters may hold half that again: two. They would wait an hour for their turn.
        MemoryBudget budget = new MemoryBudget(4 * ONE, Duration.ofHours(1));
        List<MemoryBudget.Reservation> held = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            held.add(budget.reserve(ONE));
        }
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            List<CompletableFuture<MemoryBudget.Reservation>> waiting = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                waiting.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        return budget.reserve(ONE);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }, threads));
            }
            while (budget.waiting() < 2) {
                Thread.sleep(5);
            }

            assertThatThrownBy(() -> budget.reserve(ONE)).isInstanceOfSatisfying(RegistryException.class,
                    e -> assertThat(e.errors().getFirst().code()).isEqualTo(ErrorCode.TOOMANYREQUESTS));

            held.forEach(MemoryBudget.Reservation::close);
            for (CompletableFuture<MemoryBudget.Reservation> waiter : waiting) {
                assertThat(waiter.get(10, TimeUnit.SECONDS)).isNotNull();
            }
        } finally {
            threads.shutdownNow();
        }
    }
}
