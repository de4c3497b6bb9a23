package dev.msgbench.core.analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.HdrHistogram.Histogram;

/**
 * The "Ctrl+Z" test (experiment E4) judged: a stall of S seconds inside a measured window of D
 * seconds at a fixed rate delays a fraction S/D of the messages, evenly from S down to 0, so
 * the latency at percentile {@code 100 (1 - S/2D)} is about S/2, at {@code 100 (1 - S/4D)} about
 * 3S/4, and the max about S.
 *
 * <p>A real system may take longer than the pause to deliver again (NATS has been seen to
 * deliver a few messages after SIGCONT and then nothing for a second: TCP backing off its
 * probes of the stopped peer). That extra delay is real, and the receive side sees it as a
 * second gap in delivery after the resume. So when the figures miss the pause, they are judged
 * again against the stall the deliveries show, pause plus that gap: a match means the suite
 * showed a real extra delay as it was; no match either way is a measurement error.
 *
 * <p>Tolerances follow the in-memory calibration test: 10% below the expected value (a pause
 * that begins a little late), and above it a quarter of the stall (a load generator thread
 * woken late on a busy machine adds to the whole backlog) plus the system's own p99 before the
 * pause.
 */
public final class StallCalibration {

    public enum Verdict {
        /** The figures match the pause. */
        AS_EXPECTED,
        /** The figures match the pause plus a real gap in delivery after the resume. */
        REAL_EXTRA_DELAY,
        /** The figures match neither: the measurement is wrong, or the run was disturbed. */
        MEASUREMENT_ERROR
    }

    /** One expected figure against the measured one, in milliseconds. */
    public record Check(String label, double expectedMs, double lowMs, double highMs, double measuredMs) {
        public boolean passed() {
            return measuredMs >= lowMs && measuredMs <= highMs;
        }
    }

    /**
     * @param stallSeconds what the checks assumed: the pause, or the pause plus the extra delay
     */
    public record Outcome(Verdict verdict, double pauseSeconds, double extraDelaySeconds, double stallSeconds,
                          List<Check> checks, String explanation) {
        public Outcome {
            checks = List.copyOf(checks);
        }

        public boolean passed() {
            return verdict != Verdict.MEASUREMENT_ERROR;
        }
    }

    private static final double BELOW = 0.10;
    private static final double ABOVE_FRACTION_OF_STALL = 0.25;
    /** A gap after the resume shorter than this share of the pause (or 50 ms) is not an extra delay. */
    private static final double EXTRA_DELAY_FRACTION = 0.10;
    private static final double MIN_EXTRA_DELAY_SECONDS = 0.05;

    private StallCalibration() {
    }

    /**
     * @param pauseSeconds         from the stop signal to the continue signal, as done
     * @param windowSeconds        the measured window
     * @param latencyNanos         the measured latency (from the intended send time)
     * @param baselineP99Seconds   the system's p99 before the pause
     * @param gapAfterResumeSeconds the longest time without a delivery that began after the resume; 0 if none
     */
    public static Outcome judge(double pauseSeconds, double windowSeconds, Histogram latencyNanos,
                                double baselineP99Seconds, double gapAfterResumeSeconds) {
        if (pauseSeconds <= 0 || windowSeconds <= 2 * pauseSeconds) {
            throw new IllegalArgumentException("the pause must be positive and under half the window: pause "
                    + pauseSeconds + " s, window " + windowSeconds + " s");
        }
        List<Check> asPaused = checks(pauseSeconds, windowSeconds, latencyNanos, baselineP99Seconds);
        if (asPaused.stream().allMatch(Check::passed)) {
            return new Outcome(Verdict.AS_EXPECTED, pauseSeconds, 0, pauseSeconds, asPaused,
                    "the measured latency shows the pause as it was");
        }
        boolean extraDelay = gapAfterResumeSeconds >= Math.max(MIN_EXTRA_DELAY_SECONDS, EXTRA_DELAY_FRACTION * pauseSeconds);
        double stall = pauseSeconds + gapAfterResumeSeconds;
        if (extraDelay && stall < windowSeconds / 2) {
            List<Check> asStalled = checks(stall, windowSeconds, latencyNanos, baselineP99Seconds);
            if (asStalled.stream().allMatch(Check::passed)) {
                return new Outcome(Verdict.REAL_EXTRA_DELAY, pauseSeconds, gapAfterResumeSeconds, stall, asStalled,
                        String.format(Locale.US, "the system delivered nothing for %.2f s after it was resumed: a real"
                                + " delay of the system (not of the measurement), shown as it was", gapAfterResumeSeconds));
            }
        }
        String explanation = "the measured latency does not match the pause" + (extraDelay
                ? String.format(Locale.US, ", nor the pause plus the %.2f s without delivery after it", gapAfterResumeSeconds)
                : "") + ": a measurement error or a disturbed run (see the load generator's hiccups)";
        return new Outcome(Verdict.MEASUREMENT_ERROR, pauseSeconds, gapAfterResumeSeconds, pauseSeconds, asPaused,
                explanation);
    }

    /** The percentile whose latency is half the stall: {@code 100 (1 - S/2D)}. */
    public static double halfStallPercentile(double stallSeconds, double windowSeconds) {
        return 100 * (1 - stallSeconds / (2 * windowSeconds));
    }

    private static List<Check> checks(double stall, double window, Histogram latency, double baselineP99) {
        List<Check> checks = new ArrayList<>();
        double half = halfStallPercentile(stall, window);
        double threeQuarters = 100 * (1 - stall / (4 * window));
        checks.add(check(String.format(Locale.US, "p%s", trim(half)), stall / 2, stall, baselineP99,
                latency.getValueAtPercentile(half)));
        checks.add(check(String.format(Locale.US, "p%s", trim(threeQuarters)), 0.75 * stall, stall, baselineP99,
                latency.getValueAtPercentile(threeQuarters)));
        checks.add(check("max", stall, stall, baselineP99, latency.getMaxValue()));
        return checks;
    }

    private static Check check(String label, double expectedSeconds, double stall, double baselineP99, long measuredNanos) {
        double expectedMs = expectedSeconds * 1e3;
        return new Check(label, expectedMs, expectedMs * (1 - BELOW),
                expectedMs + (ABOVE_FRACTION_OF_STALL * stall + baselineP99) * 1e3, measuredNanos / 1e6);
    }

    private static String trim(double percentile) {
        String text = String.format(Locale.US, "%.4f", percentile);
        return text.replaceAll("0+$", "").replaceAll("\\.$", "");
    }
}
