package dev.msgbench.core.time;

import java.util.SplittableRandom;

/**
 * One producer stream's intended send times on a {@link RateSchedule}. Uniform: stream
 * {@code s} of {@code S} sends messages {@code s, s + S, s + 2S, ...} of the run, each at the
 * time the schedule's count reaches it, so that together the streams send the schedule exactly
 * and evenly, as they do at a fixed rate. Poisson: exponential gaps of mean {@code S} in count
 * space, mapped back to time: Poisson arrivals at each moment's rate (split over the streams).
 * After the schedule's end, {@link #next()} answers {@link Long#MAX_VALUE}.
 */
public final class RateScheduleArrivals implements Schedule {

    private final RateSchedule rates;
    private final long startNanos;
    private final int streams;
    private final SplittableRandom poisson;
    private double count;

    /** @param seed used with Poisson arrivals only */
    RateScheduleArrivals(RateSchedule rates, long startNanos, int stream, int streams, Arrival arrival, long seed) {
        this.rates = rates;
        this.startNanos = startNanos;
        this.streams = streams;
        this.poisson = arrival == Arrival.POISSON ? new SplittableRandom(seed) : null;
        this.count = arrival == Arrival.POISSON ? 0 : stream;
    }

    @Override
    public long next() {
        long offset = rates.offsetOfCount(count);
        if (poisson == null) {
            count += streams;
        } else {
            // 1 - u lies in (0, 1], so the logarithm is finite
            count += -Math.log(1.0 - poisson.nextDouble()) * streams;
        }
        return offset < 0 ? Long.MAX_VALUE : startNanos + offset;
    }
}
