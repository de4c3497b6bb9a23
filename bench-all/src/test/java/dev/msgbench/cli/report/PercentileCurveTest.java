package dev.msgbench.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.record.Recorders;
import dev.msgbench.core.result.ResultFiles;

class PercentileCurveTest {

    @TempDir
    Path dir;

    /** 1 to 10,000 us, once each: percentile p lies at p% of 10 ms. */
    private static Histogram uniformTo10ms() {
        Histogram h = Recorders.newHistogram();
        for (long us = 1; us <= 10_000; us++) {
            h.recordValue(us * 1000);
        }
        return h;
    }

    @Test
    void pointsOfAKnownHistogramLieOnItsPercentiles() {
        PercentileCurve curve = PercentileCurve.of(uniformTo10ms());

        PercentileCurve.Point first = curve.points().get(0);
        assertEquals(0.0, first.fraction());
        assertEquals(1.0, first.inverseTail());
        assertEquals(0.001, first.valueMs(), 1e-6);
        for (PercentileCurve.Point p : curve.points()) {
            // 3 significant digits: each value within 0.1% of p% of 10 ms (or of the 1 us floor)
            double expected = Math.max(0.001, p.fraction() * 10.0);
            assertEquals(expected, p.valueMs(), expected * 0.002 + 0.001, "at " + p.fraction());
            assertTrue(p.fraction() < 1.0);
        }
        PercentileCurve.Point p90 = curve.points().stream().filter(p -> p.fraction() >= 0.9).findFirst().orElseThrow();
        assertEquals(0.9, p90.fraction(), 1e-9);
        assertEquals(10.0, p90.inverseTail(), 1e-6);
        assertEquals(9.0, p90.valueMs(), 0.01);
        assertEquals(10.0, curve.maxMs(), 0.01);
    }

    @Test
    void aHgrmFileReadBackGivesTheSameCurveAsItsHistogram() {
        Histogram h = uniformTo10ms();
        ResultFiles.writeHgrm(dir.resolve("latency.hgrm"), h);

        PercentileCurve fromFile = PercentileCurve.readHgrm(dir.resolve("latency.hgrm"));
        PercentileCurve direct = PercentileCurve.of(h);

        assertEquals(direct.points().size(), fromFile.points().size());
        for (int i = 0; i < direct.points().size(); i++) {
            assertEquals(direct.points().get(i).fraction(), fromFile.points().get(i).fraction(), 1e-12);
            assertEquals(direct.points().get(i).valueMs(), fromFile.points().get(i).valueMs(), 0.0005);
        }
        assertEquals(direct.maxMs(), fromFile.maxMs(), 0.0005);
    }

    @Test
    void anEmptyOrMissingDistributionIsAnEmptyCurve() {
        assertTrue(PercentileCurve.of(Recorders.newHistogram()).isEmpty());
        assertTrue(PercentileCurve.readHgrm(dir.resolve("ack.hgrm")).isEmpty());
    }

    @Test
    void percentileAxisIsLabelledLikeTheHdrHistogramPlotter() {
        List<String> labels = List.of(1.0, 10.0, 100.0, 1e3, 1e4, 1e5, 1e6).stream().map(Charts::percentileLabel).toList();
        assertEquals(List.of("0%", "90%", "99%", "99.9%", "99.99%", "99.999%", "99.9999%"), labels);
        assertEquals("99.9%", Charts.axisLabel(3.0));
        assertEquals("", Charts.axisLabel(2.5));
        assertEquals(2.0, Charts.inverseTail(50), 1e-9);
        assertEquals(1000.0, Charts.inverseTail(99.9), 1e-6);
    }
}
