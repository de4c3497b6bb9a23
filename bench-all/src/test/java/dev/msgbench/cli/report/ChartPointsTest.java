package dev.msgbench.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class ChartPointsTest {

    private static final int DAY_SECONDS = 86_400;

    @Test
    void aDayOfSecondsIsDrawnWithAtMostTheMaximumOfPointsAndItsSpikeKept() {
        List<Double> xs = new ArrayList<>();
        List<Double> ys = new ArrayList<>();
        for (int s = 0; s < DAY_SECONDS; s++) {
            xs.add(s + 0.5);
            ys.add(s == 50_000 ? 250.0 : 1.0);
        }

        ChartPoints thinned = ChartPoints.thin(xs, ys, Charts.MAX_POINTS, true);

        assertEquals(Charts.MAX_POINTS, thinned.xs().size());
        assertEquals(250.0, thinned.ys().stream().mapToDouble(Double::doubleValue).max().orElseThrow());
        assertEquals(1.0, thinned.ys().stream().mapToDouble(Double::doubleValue).min().orElseThrow());
        assertEquals(21.5, thinned.xs().get(0), "the first bucket holds seconds 0 to 42, drawn at its middle");
    }

    @Test
    void ratesAreThinnedToTheMeanOfEachBucket() {
        ChartPoints thinned = ChartPoints.thin(List.of(0.5, 1.5, 2.5, 3.5), List.of(10.0, 30.0, 0.0, 0.0), 2, false);

        assertEquals(List.of(1.0, 3.0), thinned.xs());
        assertEquals(List.of(20.0, 0.0), thinned.ys());
    }

    @Test
    void aSecondWithoutValueCountsForNothingAndABucketOfNoneStaysAGap() {
        List<Double> xs = List.of(0.5, 1.5, 2.5, 3.5);
        List<Double> ys = List.of(5.0, Double.NaN, Double.NaN, Double.NaN);

        assertEquals(List.of(5.0, Double.NaN), ChartPoints.thin(xs, ys, 2, true).ys(), "latency: the highest");
        assertEquals(List.of(5.0, Double.NaN), ChartPoints.thin(xs, ys, 2, false).ys(), "rates: the mean");
    }

    @Test
    void aSeriesWithinTheMaximumIsDrawnAsItIs() {
        List<Double> xs = List.of(0.5, 1.5);

        assertSame(xs, ChartPoints.thin(xs, List.of(1.0, 2.0), 2, true).xs());
    }
}
