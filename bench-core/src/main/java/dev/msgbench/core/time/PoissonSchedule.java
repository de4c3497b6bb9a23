package dev.msgbench.core.time;

import java.util.SplittableRandom;

/**
 * Poisson arrivals: exponentially distributed gaps with mean 1/rate, drawn from a seeded
 * generator so that the same seed gives the same schedule on every run.
 */
public final class PoissonSchedule implements Schedule {

    private final double meanGapNanos;
    private final SplittableRandom random;
    private double nextNanos;

    public PoissonSchedule(long startNanos, double rateMsgsPerSec, long seed) {
        if (!(rateMsgsPerSec > 0)) {
            throw new IllegalArgumentException("rate must be positive: " + rateMsgsPerSec);
        }
        this.meanGapNanos = 1e9 / rateMsgsPerSec;
        this.random = new SplittableRandom(seed);
        this.nextNanos = startNanos;
    }

    @Override
    public long next() {
        long due = Math.round(nextNanos);
        // 1 - u lies in (0, 1], so the logarithm is finite
        nextNanos += -Math.log(1.0 - random.nextDouble()) * meanGapNanos;
        return due;
    }
}
