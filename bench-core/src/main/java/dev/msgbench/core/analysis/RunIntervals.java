package dev.msgbench.core.analysis;

import java.util.ArrayList;
import java.util.List;

import org.HdrHistogram.Histogram;

/**
 * What each interval the progress monitor samples (about a second, warm-up included) counted
 * and measured: for the per-fault figures, the steadiness of the measured window and the end of
 * an automatic warm-up. One small record per second of run.
 */
public final class RunIntervals {

    /**
     * Times on the run's clock; latencies of the messages received in the interval, 0 when it
     * received nothing.
     *
     * @param inFlight sent and not received at the interval's end
     */
    public record Interval(long startNanos, long endNanos, long sent, long received, long inFlight, long count,
                           long p50Nanos, long p99Nanos, long maxNanos) {

        /** As the judgements of this package read it, from {@code originNanos}. */
        public SecondStats stats(long originNanos) {
            boolean any = count > 0;
            return new SecondStats((startNanos - originNanos) / 1e9, sent, received, inFlight,
                    any ? p50Nanos / 1e6 : Double.NaN, any ? p99Nanos / 1e6 : Double.NaN, any ? maxNanos / 1e6 : Double.NaN);
        }
    }

    private final List<Interval> intervals = new ArrayList<>();

    /**
     * Called by the progress monitor with each interval's counts and latency histogram (by
     * receive time).
     */
    public synchronized void add(long startNanos, long endNanos, long sent, long received, long inFlight,
                                 Histogram latency) {
        long count = latency.getTotalCount();
        intervals.add(new Interval(startNanos, endNanos, sent, received, inFlight, count,
                count == 0 ? 0 : latency.getValueAtPercentile(50), count == 0 ? 0 : latency.getValueAtPercentile(99),
                count == 0 ? 0 : latency.getMaxValue()));
    }

    public synchronized List<Interval> all() {
        return List.copyOf(intervals);
    }

    /**
     * The intervals that begin at or after {@code fromNanos} and end by {@code toNanos}, as seconds
     * from {@code fromNanos}: the measured window without its drain.
     */
    public synchronized List<SecondStats> seconds(long fromNanos, long toNanos) {
        List<SecondStats> seconds = new ArrayList<>();
        for (Interval i : intervals) {
            if (i.startNanos() >= fromNanos && i.endNanos() <= toNanos) {
                seconds.add(i.stats(fromNanos));
            }
        }
        return seconds;
    }
}
