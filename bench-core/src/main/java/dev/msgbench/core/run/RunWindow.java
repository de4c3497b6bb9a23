package dev.msgbench.core.run;

/**
 * The phases of a run on the run's clock: warm-up from {@code start} to {@code measureStart},
 * measurement until {@code end}. A message belongs to the phase of its intended send time,
 * whenever it is actually sent or received.
 */
record RunWindow(long startNanos, long measureStartNanos, long endNanos) {

    boolean isMeasured(long intendedNanos) {
        return intendedNanos >= measureStartNanos;
    }

    double measuredSeconds() {
        return (endNanos - measureStartNanos) / 1e9;
    }

    double totalSeconds() {
        return (endNanos - startNanos) / 1e9;
    }
}
