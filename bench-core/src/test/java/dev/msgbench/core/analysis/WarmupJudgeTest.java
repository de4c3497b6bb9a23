package dev.msgbench.core.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class WarmupJudgeTest {

    private static final double RATE = 2000;

    /**
     * A fresh Kafka broker at 2,000 msg/s of 5 KiB on a busy 2-core machine, second by second
     * (p50 ms, received, in flight at the end of the second), as measured on 2026-11-24.
     */
    private static final double[][] FRESH_KAFKA = {
            {623, 367, 1633}, {1203, 585, 3048}, {1767, 1068, 3980}, {1961, 2196, 3784}, {1794, 2739, 3045},
            {1870, 1779, 3266}, {1723, 1665, 3601}, {1430, 3798, 1803}, {578, 3627, 176}, {144, 2221, 40},
            {5.8, 1954, 12}, {16.2, 1997, 32}, {4.2, 1995, 9}, {80.1, 2007, 160}, {3.6, 2001, 7},
            {12.3, 1990, 25}, {7.6, 2003, 15}, {6.2, 2005, 12}, {18.0, 1876, 36}, {33.8, 2125, 68}};

    @Test
    void aFreshKafkaBrokerSettlesOnceItsBacklogHasDrainedAndStayedSmallForTwoWindows() {
        assertEquals(20, firstSettledSecond(FRESH_KAFKA));
    }

    @Test
    void aSystemSteadyFromTheStartSettlesAfterTwoWindows() {
        double[][] steady = new double[12][];
        for (int i = 0; i < steady.length; i++) {
            steady[i] = new double[] {2.0, RATE, 4};
        }
        assertEquals(2 * WarmupJudge.WINDOW_SECONDS, firstSettledSecond(steady));
    }

    @Test
    void aPlateauOfFiveSecondsBeforeTheBacklogDrainsIsNotSettled() {
        assertFalse(WarmupJudge.settled(stats(FRESH_KAFKA).subList(0, 12), RATE));
    }

    @Test
    void aGrowingBacklogNeverSettles() {
        double[][] falling = new double[20][];
        for (int i = 0; i < falling.length; i++) {
            falling[i] = new double[] {2.0 + 50 * i, RATE * 0.9, 200 * (i + 1)};
        }
        assertEquals(-1, firstSettledSecond(falling));
    }

    @Test
    void aSecondWithoutDeliveryIsNotSettled() {
        double[][] steady = new double[10][];
        for (int i = 0; i < steady.length; i++) {
            steady[i] = new double[] {2.0, RATE, 4};
        }
        List<SecondStats> seconds = stats(steady);
        assertTrue(WarmupJudge.settled(seconds, RATE));
        seconds.set(7, new SecondStats(7, (long) RATE, 0, 4, Double.NaN, Double.NaN, Double.NaN));
        assertFalse(WarmupJudge.settled(seconds, RATE));
    }

    /** The warm-up length in seconds at which the judge first says settled; -1 for never. */
    private static int firstSettledSecond(double[][] rows) {
        List<SecondStats> all = stats(rows);
        for (int n = 1; n <= all.size(); n++) {
            if (WarmupJudge.settled(all.subList(0, n), RATE)) {
                return n;
            }
        }
        return -1;
    }

    private static List<SecondStats> stats(double[][] rows) {
        List<SecondStats> seconds = new ArrayList<>();
        for (int i = 0; i < rows.length; i++) {
            double p50 = rows[i][0];
            seconds.add(new SecondStats(i, (long) RATE, (long) rows[i][1], (long) rows[i][2], p50, p50 * 2, p50 * 3));
        }
        return seconds;
    }
}
