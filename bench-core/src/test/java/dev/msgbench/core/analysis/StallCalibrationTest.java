package dev.msgbench.core.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import dev.msgbench.core.analysis.StallCalibration.Outcome;
import dev.msgbench.core.analysis.StallCalibration.Verdict;
import dev.msgbench.core.record.Recorders;

class StallCalibrationTest {

    private static final double RATE = 1000;
    private static final double WINDOW = 20;
    private static final double PAUSE = 2;
    private static final long BASE_NANOS = 2_000_000;

    @Test
    void latencyThatFollowsThePauseIsAsExpected() {
        Outcome outcome = StallCalibration.judge(PAUSE, WINDOW, stalled(PAUSE, 0), 0.005, 0);

        assertEquals(Verdict.AS_EXPECTED, outcome.verdict());
        assertEquals(3, outcome.checks().size());
        assertEquals("p95", outcome.checks().get(0).label());
        assertEquals(1000, outcome.checks().get(0).expectedMs());
        assertEquals("p97.5", outcome.checks().get(1).label());
        assertEquals(2000, outcome.checks().get(2).expectedMs());
        assertTrue(outcome.passed());
    }

    @Test
    void aGapInDeliveryAfterTheResumeExplainsLatencyBeyondThePauseAsARealDelay() {
        Outcome outcome = StallCalibration.judge(PAUSE, WINDOW, stalled(PAUSE, 1.0), 0.005, 1.0);

        assertEquals(Verdict.REAL_EXTRA_DELAY, outcome.verdict());
        assertEquals(3.0, outcome.stallSeconds());
        assertEquals("the system delivered nothing for 1.00 s after it was resumed: a real delay of the system"
                + " (not of the measurement), shown as it was", outcome.explanation());
        assertTrue(outcome.passed());
    }

    @Test
    void latencyBeyondThePauseWithoutAGapAfterTheResumeIsAMeasurementError() {
        Outcome outcome = StallCalibration.judge(PAUSE, WINDOW, stalled(PAUSE, 1.0), 0.005, 0);

        assertEquals(Verdict.MEASUREMENT_ERROR, outcome.verdict());
        assertEquals("the measured latency does not match the pause: a measurement error or a disturbed run"
                + " (see the load generator's hiccups)", outcome.explanation());
    }

    @Test
    void aToolWithCoordinatedOmissionFails() {
        Histogram onlyServiceTime = Recorders.newHistogram();
        onlyServiceTime.recordValueWithCount(BASE_NANOS, (long) (RATE * WINDOW));
        onlyServiceTime.recordValue((long) (PAUSE * 1e9));

        Outcome outcome = StallCalibration.judge(PAUSE, WINDOW, onlyServiceTime, 0.005, 0);

        assertEquals(Verdict.MEASUREMENT_ERROR, outcome.verdict());
        assertTrue(outcome.checks().get(2).passed(), "its max shows the pause");
        assertTrue(!outcome.checks().get(0).passed(), "but not its percentiles");
    }

    @Test
    void aStallCountedTwiceFails() {
        Outcome outcome = StallCalibration.judge(PAUSE, WINDOW, stalled(2 * PAUSE, 0), 0.005, 0);

        assertEquals(Verdict.MEASUREMENT_ERROR, outcome.verdict());
    }

    @Test
    void aPauseOfHalfTheWindowOrMoreIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> StallCalibration.judge(10, 20, stalled(PAUSE, 0), 0, 0));
        assertEquals("the pause must be positive and under half the window: pause 10.0 s, window 20.0 s", e.getMessage());
    }

    /** Messages at RATE over WINDOW; those due in the stall of {@code stall + extra} s wait until it ends. */
    private static Histogram stalled(double pause, double extra) {
        Histogram h = Recorders.newHistogram();
        double stall = pause + extra;
        double stallStart = 5;
        long messages = (long) (RATE * WINDOW);
        for (long i = 0; i < messages; i++) {
            double due = i / RATE;
            boolean held = due >= stallStart && due < stallStart + stall;
            h.recordValue(held ? (long) ((stallStart + stall - due) * 1e9) + BASE_NANOS : BASE_NANOS);
        }
        return h;
    }
}
