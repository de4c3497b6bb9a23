package dev.msgbench.core.fault;

import java.util.ArrayList;
import java.util.List;

import org.HdrHistogram.Histogram;

/**
 * The latency p99 and max of each interval the progress monitor samples (about a second each,
 * warm-up included), for the per-fault recovery time and max latency. One small record per
 * second of run.
 */
public final class LatencyIntervals {

    /** Times on the run's clock; p99 and max 0 when the interval received nothing. */
    public record Interval(long startNanos, long endNanos, long count, long p99Nanos, long maxNanos) {
    }

    private final List<Interval> intervals = new ArrayList<>();

    /** Called by the progress monitor with each interval's latency histogram (by receive time). */
    public synchronized void add(long startNanos, long endNanos, Histogram latency) {
        long count = latency.getTotalCount();
        intervals.add(new Interval(startNanos, endNanos, count, count == 0 ? 0 : latency.getValueAtPercentile(99),
                count == 0 ? 0 : latency.getMaxValue()));
    }

    public synchronized List<Interval> all() {
        return List.copyOf(intervals);
    }
}
