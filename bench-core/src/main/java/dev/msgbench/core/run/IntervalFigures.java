package dev.msgbench.core.run;

import org.HdrHistogram.Histogram;

import dev.msgbench.core.record.StreamSnapshot;

/**
 * One monitor interval of a run, as its live figures show it.
 *
 * @param phase                where the run was when the interval began; {@link RunPhase#DONE} for the last
 * @param elapsedNanos         from the start of sending to the end of the interval
 * @param intervalNanos        how long the interval lasted
 * @param totals               every stream's counts so far, warm-up included (result.json's counts)
 * @param targetRateMsgsPerSec what the schedule asked for during the interval; NaN for a run as fast
 *                             as accepted (throughput)
 * @param latency              response time (receive - intended send) of the interval's messages
 * @param service              service time (receive - actual send) of the interval's messages
 */
public record IntervalFigures(RunPhase phase, long elapsedNanos, long intervalNanos, StreamSnapshot totals,
                              double targetRateMsgsPerSec, Percentiles latency, Percentiles service) {

    /**
     * One interval's percentiles, in nanoseconds; -1 each when nothing was received in it (an empty
     * interval has no percentile, and 0 would read as a very fast one).
     */
    public record Percentiles(long count, long p50Nanos, long p90Nanos, long p99Nanos, long p999Nanos, long maxNanos) {

        static Percentiles of(Histogram h) {
            if (h.getTotalCount() == 0) {
                return new Percentiles(0, -1, -1, -1, -1, -1);
            }
            return new Percentiles(h.getTotalCount(), h.getValueAtPercentile(50), h.getValueAtPercentile(90),
                    h.getValueAtPercentile(99), h.getValueAtPercentile(99.9), h.getMaxValue());
        }
    }
}
