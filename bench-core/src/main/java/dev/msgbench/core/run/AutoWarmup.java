package dev.msgbench.core.run;

import java.util.Locale;

import dev.msgbench.core.analysis.RunIntervals;
import dev.msgbench.core.analysis.WarmupJudge;
import dev.msgbench.core.result.IntervalLog;

/**
 * {@code --warmup auto}: after each second the progress monitor samples, asks the
 * {@link WarmupJudge} whether the warm-up so far has settled, and if so (or once the bound is
 * reached) decides where the run's open {@link RunWindow} starts measuring.
 *
 * <p>Measuring starts at the next second boundary, not at the one just judged: by the time the
 * judgement is made, messages due at that boundary may have gone out as warm-up already, and a
 * message must not change phase between its send and its receipt. A system steady from the start
 * is judged settled after 10 s and measured from 11 s.
 */
final class AutoWarmup {

    private static final long SECOND = 1_000_000_000L;
    /** A boundary closer than this to the clock may be passed before the producers see the decision. */
    private static final long DECISION_MARGIN_NANOS = 10_000_000L;

    private final RunWindow window;
    private final long boundNanos;
    private final double rateMsgsPerSec;
    private final IntervalLog log;
    private final Runnable onDecided;

    /**
     * @param maxWarmupNanos whole seconds
     * @param onDecided      called once the measure start is decided, on the deciding thread
     */
    AutoWarmup(RunWindow window, long maxWarmupNanos, double rateMsgsPerSec, IntervalLog log, Runnable onDecided) {
        this.window = window;
        this.boundNanos = window.startNanos() + maxWarmupNanos;
        this.rateMsgsPerSec = rateMsgsPerSec;
        this.log = log;
        this.onDecided = onDecided;
    }

    /** Called by the monitor after each whole second it sampled, {@code now} on the run's clock. */
    void afterSecond(long now, RunIntervals intervals) {
        if (!window.isOpen()) {
            return;
        }
        long next = nextBoundaryAfter(now + DECISION_MARGIN_NANOS);
        boolean settled = WarmupJudge.settled(intervals.seconds(window.startNanos(), Long.MAX_VALUE), rateMsgsPerSec);
        if (settled || next >= boundNanos) {
            decide(next, settled);
        }
    }

    /**
     * A run that stops during its warm-up measured nothing: its window is closed at the bound so
     * that the result reads as a run with an empty measured part.
     */
    void closeUndecided() {
        window.decide(boundNanos, false);
    }

    private void decide(long measureStartNanos, boolean settled) {
        if (!window.decide(measureStartNanos, settled)) {
            return;
        }
        log.measuredFrom((measureStartNanos - window.startNanos()) / 1e9, settled ? "settled"
                : String.format(Locale.US, "did not settle within %d s", (boundNanos - window.startNanos()) / SECOND));
        onDecided.run();
    }

    private long nextBoundaryAfter(long nanos) {
        long sinceStart = nanos - window.startNanos();
        return window.startNanos() + (sinceStart / SECOND + 1) * SECOND;
    }
}
