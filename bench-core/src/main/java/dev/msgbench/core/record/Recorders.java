package dev.msgbench.core.record;

import java.util.concurrent.CopyOnWriteArrayList;

import org.HdrHistogram.Histogram;

/**
 * All histogram recording of one run. Each thread that records (producer threads, a client's
 * callback and consumer threads) gets recorders of its own; {@link #drainInterval} adds them up.
 * Histograms are merged only by adding, never by combining percentiles.
 */
public final class Recorders {

    private static final int KINDS = HistogramKind.values().length;

    private final CopyOnWriteArrayList<ThreadRecorders> threads = new CopyOnWriteArrayList<>();
    private final ThreadLocal<ThreadRecorders> local = ThreadLocal.withInitial(this::register);

    private ThreadRecorders register() {
        ThreadRecorders recorders = new ThreadRecorders(Thread.currentThread());
        threads.add(recorders);
        return recorders;
    }

    /** The calling thread's recorders, for a site that records on one thread many times. */
    public ThreadRecorders current() {
        return local.get();
    }

    /**
     * Records one value for the calling thread.
     *
     * @param inMeasurement false for messages intended during the warm-up, which stay out of the
     *                      results but still appear in the interval log
     */
    public void record(HistogramKind kind, boolean inMeasurement, long valueNanos) {
        local.get().record(kind, inMeasurement, valueNanos);
    }

    public static Histogram newHistogram() {
        return new Histogram(ThreadRecorders.SIGNIFICANT_DIGITS);
    }

    /** What all threads recorded since the previous call; one caller at a time. */
    public synchronized Interval drainInterval() {
        Interval interval = new Interval();
        for (ThreadRecorders recorders : threads) {
            recorders.drainInto(interval.allPhases, interval.measured);
        }
        return interval;
    }

    /** One sampling interval's histograms, per kind. */
    public static final class Interval {
        private final Histogram[] allPhases = new Histogram[KINDS];
        private final Histogram[] measured = new Histogram[KINDS];

        Interval() {
            for (int k = 0; k < KINDS; k++) {
                allPhases[k] = newHistogram();
                measured[k] = newHistogram();
            }
        }

        /** Warm-up and measured messages together: what the interval log shows. */
        public Histogram all(HistogramKind kind) {
            return allPhases[kind.ordinal()];
        }

        /** Only messages intended after the warm-up: what the results add up. */
        public Histogram measured(HistogramKind kind) {
            return measured[kind.ordinal()];
        }
    }
}
