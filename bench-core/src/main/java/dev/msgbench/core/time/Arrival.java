package dev.msgbench.core.time;

import java.util.Locale;

/** How intended send times are spaced. */
public enum Arrival {
    /** Equal gaps: the published experiments' fixed rate. */
    UNIFORM,
    /** Exponential gaps with the same mean: bursts as independent clients make them. */
    POISSON;

    /**
     * The schedule of one of {@code streams} producer streams sharing {@code rateMsgsPerSec}.
     * Uniform streams are offset by a fraction of their period so that together they send
     * evenly rather than in step.
     */
    public Schedule schedule(long startNanos, double rateMsgsPerSec, int stream, int streams, long seed) {
        double streamRate = rateMsgsPerSec / streams;
        switch (this) {
            case UNIFORM:
                long offset = Math.round(stream * (1e9 / streamRate) / streams);
                return new UniformSchedule(startNanos + offset, streamRate);
            case POISSON:
                return new PoissonSchedule(startNanos, streamRate, seed * 31 + stream);
            default:
                throw new AssertionError(this);
        }
    }

    /**
     * As {@link #schedule(long, double, int, int, long)} on a rate that changes over time: the
     * streams share every moment's rate.
     */
    public Schedule schedule(long startNanos, RateSchedule rates, int stream, int streams, long seed) {
        return new RateScheduleArrivals(rates, startNanos, stream, streams, this, seed * 31 + stream);
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
