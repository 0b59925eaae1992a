package dev.layerfold.server;

/**
 * The parts of the heap that are budgeted (request data, restores, the predictor's memory tier) must
 * leave the rest for what is not: Spring and the indexes, Tomcat's per-connection objects, the
 * collector's headroom. A configuration whose budgets add up to more than {@link #MOST} of the heap
 * could run it out under load whatever each budget enforces, so it does not start.
 */
final class HeapShares {

    /** The most of the heap the budgets may take together; the defaults take all of it. */
    static final double MOST = 0.75;

    private HeapShares() {
    }

    /** @throws IllegalStateException naming the properties if the budgets take more than {@link #MOST} of {@code heap} */
    static void check(long heap, long requestMemory, long restoreMemory, long tierMemory) {
        long budgets = requestMemory + restoreMemory + tierMemory;
        if (budgets > MOST * heap) {
            throw new IllegalStateException(String.format("the heap's budgets add up to %d MiB, more than %.0f%% of the %d MiB heap"
                            + " (-Xmx): layerfold.api.request-memory %d MiB + layerfold.dedup.restore-memory %d MiB"
                            + " + layerfold.predictor.memory-size %d MiB. Lower them, or give the JVM a larger heap",
                    budgets >> 20, MOST * 100, heap >> 20, requestMemory >> 20, restoreMemory >> 20, tierMemory >> 20));
        }
    }
}
