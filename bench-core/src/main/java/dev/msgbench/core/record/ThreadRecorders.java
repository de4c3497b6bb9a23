package dev.msgbench.core.record;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * The recorders one thread writes to: one per histogram kind and phase (warm-up or measured).
 * Single-writer recorders need no atomic increments; the sampling thread swaps their interval
 * histograms out without stopping the writer.
 */
final class ThreadRecorders {

    /** Three significant digits: 0.1% resolution at every magnitude, from 1 ns up. */
    static final int SIGNIFICANT_DIGITS = 3;

    private static final int KINDS = HistogramKind.values().length;

    private final SingleWriterRecorder[] warmup = new SingleWriterRecorder[KINDS];
    private final SingleWriterRecorder[] measured = new SingleWriterRecorder[KINDS];
    private final Histogram[] recycledWarmup = new Histogram[KINDS];
    private final Histogram[] recycledMeasured = new Histogram[KINDS];

    ThreadRecorders() {
        for (int k = 0; k < KINDS; k++) {
            // auto-resizing: no value is ever clamped or dropped, however large
            warmup[k] = new SingleWriterRecorder(SIGNIFICANT_DIGITS);
            measured[k] = new SingleWriterRecorder(SIGNIFICANT_DIGITS);
        }
    }

    void record(HistogramKind kind, boolean inMeasurement, long valueNanos) {
        SingleWriterRecorder recorder = inMeasurement ? measured[kind.ordinal()] : warmup[kind.ordinal()];
        // a negative value means the clock was misused; record it as 0 rather than throw in a
        // driver's callback thread, and let the receive-side checks count it
        recorder.recordValue(Math.max(0, valueNanos));
    }

    /** Adds this thread's histograms since the last call into the given per-kind totals. */
    void drainInto(Histogram[] allPhases, Histogram[] measuredOnly) {
        for (int k = 0; k < KINDS; k++) {
            Histogram w = warmup[k].getIntervalHistogram(recycledWarmup[k]);
            Histogram m = measured[k].getIntervalHistogram(recycledMeasured[k]);
            allPhases[k].add(w);
            allPhases[k].add(m);
            measuredOnly[k].add(m);
            recycledWarmup[k] = w;
            recycledMeasured[k] = m;
        }
    }
}
