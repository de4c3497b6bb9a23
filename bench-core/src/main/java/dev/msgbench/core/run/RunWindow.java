package dev.msgbench.core.run;

/**
 * The phases of a run on the run's clock: warm-up from {@code start} to {@code measureStart},
 * measurement until {@code end}. A message belongs to the phase of its intended send time,
 * whenever it is actually sent or received.
 *
 * <p>A fixed warm-up fixes all three before the first message. An automatic one ({@code --warmup
 * auto}) leaves the window open: every message is warm-up until the progress monitor
 * {@link #decide decides} the measure start, once, at a second boundary still ahead of the clock,
 * so that no message already sent changes phase. Until then {@link #endNanos()} is the latest
 * the end can be, so no producer stops early.
 *
 * <p>IMPLEMENTATION NOTES: producers and receivers read {@link #isMeasured} and the end per
 * message; volatile reads of fields written once, no locks (a plain read on x86).
 */
final class RunWindow {

    private static final long OPEN = Long.MAX_VALUE;

    private final long startNanos;
    private final long durationNanos;
    private volatile long measureStartNanos;
    private volatile long endNanos;
    private volatile boolean settled;

    /** A window fixed in advance. */
    RunWindow(long startNanos, long measureStartNanos, long endNanos) {
        this(startNanos, measureStartNanos, endNanos, endNanos - measureStartNanos);
    }

    private RunWindow(long startNanos, long measureStartNanos, long endNanos, long durationNanos) {
        this.startNanos = startNanos;
        this.measureStartNanos = measureStartNanos;
        this.endNanos = endNanos;
        this.durationNanos = durationNanos;
    }

    /** A window whose measure start is decided during the run, at most {@code maxWarmupNanos} after the start. */
    static RunWindow open(long startNanos, long maxWarmupNanos, long durationNanos) {
        return new RunWindow(startNanos, OPEN, startNanos + maxWarmupNanos + durationNanos, durationNanos);
    }

    /**
     * Ends the warm-up of an open window: measuring starts at {@code measureStartNanos} and lasts
     * the duration. Called before the clock reaches {@code measureStartNanos}; only the first call
     * counts.
     *
     * @param settledFirst whether the system settled first (else the warm-up reached its bound)
     * @return false when the window was decided already
     */
    synchronized boolean decide(long measureStartNanos, boolean settledFirst) {
        if (!isOpen()) {
            return false;
        }
        this.settled = settledFirst;
        // the start first: whoever sees the new end sees the start too
        this.measureStartNanos = measureStartNanos;
        this.endNanos = measureStartNanos + durationNanos;
        return true;
    }

    /** True while an automatic warm-up goes on. */
    boolean isOpen() {
        return measureStartNanos == OPEN;
    }

    /** Whether an automatic warm-up ended because the system settled; false for a fixed one. */
    boolean settled() {
        return settled;
    }

    boolean isMeasured(long intendedNanos) {
        return intendedNanos >= measureStartNanos;
    }

    long startNanos() {
        return startNanos;
    }

    /** {@code Long.MAX_VALUE} while {@link #isOpen() open}. */
    long measureStartNanos() {
        return measureStartNanos;
    }

    long endNanos() {
        return endNanos;
    }

    double measuredSeconds() {
        return durationNanos / 1e9;
    }

    double totalSeconds() {
        return (endNanos - startNanos) / 1e9;
    }

    double warmupSeconds() {
        return (measureStartNanos - startNanos) / 1e9;
    }
}
