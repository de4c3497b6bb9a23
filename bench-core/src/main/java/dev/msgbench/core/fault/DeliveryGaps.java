package dev.msgbench.core.fault;

import java.util.ArrayList;
import java.util.List;

/**
 * The longest times between two deliveries of a run, with when each began, for the per-fault
 * "longest time with no delivery".
 *
 * <p>IMPLEMENTATION NOTES: {@link #between} runs on the receive path of every message, so it
 * allocates nothing and, unless a gap is among the longest so far, only reads one volatile
 * field. Only the {@link #KEPT} longest gaps are kept: a fault's gap is one of them unless more
 * than that many faults of a run each stall longer. Two consumer threads may see the same gap
 * or a negative one; the first is harmless, the second is ignored.
 */
public final class DeliveryGaps {

    static final int KEPT = 32;

    private final long[] startNanos = new long[KEPT];
    private final long[] lengthNanos = new long[KEPT];
    /** The shortest gap kept once all slots are full; 0 while there is a free slot. */
    private volatile long shortestKeptNanos;

    /** A gap was {@code previousNanos} (the delivery before) to {@code nowNanos} (this one). */
    public void between(long previousNanos, long nowNanos) {
        long gap = nowNanos - previousNanos;
        if (gap > shortestKeptNanos) {
            keep(previousNanos, gap);
        }
    }

    private synchronized void keep(long start, long gap) {
        int shortest = 0;
        for (int i = 1; i < KEPT; i++) {
            if (lengthNanos[i] < lengthNanos[shortest]) {
                shortest = i;
            }
        }
        if (gap <= lengthNanos[shortest]) {
            return;
        }
        startNanos[shortest] = start;
        lengthNanos[shortest] = gap;
        long min = Long.MAX_VALUE;
        for (long length : lengthNanos) {
            min = Math.min(min, length);
        }
        shortestKeptNanos = min;
    }

    /** The kept gaps, each {start, length} in nanoseconds of the run's clock. */
    public synchronized List<long[]> longest() {
        List<long[]> gaps = new ArrayList<>();
        for (int i = 0; i < KEPT; i++) {
            if (lengthNanos[i] > 0) {
                gaps.add(new long[] {startNanos[i], lengthNanos[i]});
            }
        }
        return gaps;
    }
}
