package dev.msgbench.core.time;

/**
 * Message i is due at {@code start + i * period}. Computed from i rather than accumulated, so
 * rounding never drifts over a long run.
 */
public final class UniformSchedule implements Schedule {

    private final long startNanos;
    private final double periodNanos;
    private long index;

    public UniformSchedule(long startNanos, double rateMsgsPerSec) {
        if (!(rateMsgsPerSec > 0)) {
            throw new IllegalArgumentException("rate must be positive: " + rateMsgsPerSec);
        }
        this.startNanos = startNanos;
        this.periodNanos = 1e9 / rateMsgsPerSec;
    }

    @Override
    public long next() {
        return startNanos + Math.round(index++ * periodNanos);
    }
}
