package dev.layerfold.restore;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.TimeUnit;

/** Holds the tasks it is given until the test runs them, so that requests can be made to overlap for certain. */
final class HeldExecutor extends AbstractExecutorService {

    private final List<Runnable> held = new ArrayList<>();
    private int heldSoFar;

    @Override
    public synchronized void execute(Runnable task) {
        held.add(task);
        heldSoFar++;
    }

    synchronized int heldSoFar() {
        return heldSoFar;
    }

    /** Runs every task held and not run yet, on the calling thread. */
    void runHeld() {
        List<Runnable> tasks;
        synchronized (this) {
            tasks = List.copyOf(held);
            held.clear();
        }
        tasks.forEach(Runnable::run);
    }

    @Override
    public void shutdown() {
    }

    @Override
    public List<Runnable> shutdownNow() {
        return new ArrayList<>();
    }

    @Override
    public boolean isShutdown() {
        return false;
    }

    @Override
    public boolean isTerminated() {
        return false;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return true;
    }
}
