package dev.msgbench.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.record.HistogramKind;
import dev.msgbench.core.result.IntervalLog;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.result.RunResult;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class IntervalSeriesTest {

    @TempDir
    static Path dir;

    static Path run;

    @BeforeAll
    static void writeARun() throws Exception {
        run = Fixtures.run(dir.resolve("run"), "nats", 1000);
    }

    @Test
    void perSecondPercentilesAreThoseOfTheHdrHistogramReader() throws Exception {
        List<Histogram> expected = new ArrayList<>();
        HistogramLogReader reader = new HistogramLogReader(run.resolve("latency.hlog").toFile());
        EncodableHistogram next;
        while ((next = reader.nextIntervalHistogram()) != null) {
            if ("latency".equals(next.getTag())) {
                expected.add((Histogram) next);
            }
        }
        reader.close();

        List<IntervalSeries.Interval> intervals = IntervalSeries.read(run).of(HistogramKind.LATENCY);

        assertEquals(expected.size(), intervals.size());
        assertTrue(intervals.size() >= 2, "a 2 s run has at least 2 one-second intervals: " + intervals);
        for (int i = 0; i < intervals.size(); i++) {
            Histogram h = expected.get(i);
            IntervalSeries.Interval got = intervals.get(i);
            assertEquals(h.getTotalCount(), got.count());
            if (h.getTotalCount() > 0) {
                assertEquals(h.getValueAtPercentile(50) / 1e6, got.p50Ms(), 1e-9);
                assertEquals(h.getValueAtPercentile(99) / 1e6, got.p99Ms(), 1e-9);
                assertEquals(h.getMaxValue() / 1e6, got.maxMs(), 1e-9);
                // each publish takes 1 ms in the in-memory system
                assertTrue(got.p50Ms() >= 1.0, "p50 " + got.p50Ms());
            }
        }
    }

    @Test
    void theWarmupBoundaryComesFromTheLogHeader() {
        IntervalSeries series = IntervalSeries.read(run);

        assertEquals(0.5, series.warmupSeconds(), 1e-9);
        assertEquals(0.0, series.of(HistogramKind.LATENCY).get(0).startSeconds(), 0.01);
    }

    @Test
    void countsPerSecondAreMessagesSentAndReceived() {
        RunResult result = ResultFiles.readResult(run);
        IntervalSeries series = IntervalSeries.read(run);

        long received = series.of(HistogramKind.LATENCY).stream().mapToLong(IntervalSeries.Interval::count).sum();
        long sent = series.of(HistogramKind.SEND_DELAY).stream().mapToLong(IntervalSeries.Interval::count).sum();

        assertEquals(result.counts().received(), received);
        assertEquals(result.counts().sent(), sent);
        assertFalse(series.of(HistogramKind.LATENCY).isEmpty());
        double peak = series.of(HistogramKind.SEND_DELAY).stream().mapToDouble(IntervalSeries.Interval::ratePerSecond)
                .max().orElse(0);
        assertTrue(peak > 100 && peak < 300, "about 200 msg/s: " + peak);
    }

    @Test
    void intervalsCsvGivesEachSecondsCountsAddingUpToTheResults() {
        RunResult result = ResultFiles.readResult(run);
        List<IntervalSeries.Counts> counts = IntervalSeries.read(run).counts();

        assertEquals(result.counts().sent(), counts.stream().mapToLong(IntervalSeries.Counts::sent).sum());
        assertEquals(result.counts().acknowledged(), counts.stream().mapToLong(IntervalSeries.Counts::acknowledged).sum());
        assertEquals(result.counts().received(), counts.stream().mapToLong(IntervalSeries.Counts::received).sum());
        assertEquals(new IntervalSeries.Counts(0, 1, 200, 200, 200, 0, 0), counts.get(0), "the first second, on a fake clock");
    }

    @Test
    void theThroughputChartShowsWhatWasAcknowledgedAndWhatIsStillUnreceived() {
        Charts.Chart chart = OverTimeCharts.throughputOverTime(RunFolder.read(run, "run"), 0);

        assertEquals(List.of("sent (publishers)", "acknowledged", "received (consumers)",
                "sent, not received (at the second's end)"), List.copyOf(chart.xchart().getSeriesMap().keySet()));
    }

    @Test
    void aFolderOfAVersionWithoutIntervalsCsvHasNoCountsAndItsChartTheTwoRates() throws Exception {
        java.nio.file.Files.delete(Fixtures.run(dir.resolve("old"), "nats", 1000).resolve("intervals.csv"));

        assertTrue(IntervalSeries.read(dir.resolve("old")).counts().isEmpty());
        assertEquals(List.of("sent (publishers)", "received (consumers)"), List.copyOf(
                OverTimeCharts.throughputOverTime(RunFolder.read(dir.resolve("old"), "old"), 0).xchart().getSeriesMap().keySet()));
    }

    @Test
    void anAutomaticWarmupEndsWhereTheLogSaysItWasDecided() throws Exception {
        Path auto = java.nio.file.Files.createDirectories(dir.resolve("auto"));
        try (IntervalLog log = IntervalLog.withAutoWarmup(auto, 0, 60, 10)) {
            log.comment("[fault pause node=1 asked 2.000s done 2.000s ended 3.500s]");
            log.measuredFrom(13, "settled");
        }

        assertEquals(13.0, IntervalSeries.warmupSeconds(auto.resolve(IntervalLog.FILE_NAME)));
    }

    @Test
    void aFolderWithoutAnIntervalLogHasNoIntervals() {
        IntervalSeries series = IntervalSeries.read(dir);
        assertTrue(series.of(HistogramKind.LATENCY).isEmpty());
        assertEquals(0.0, series.warmupSeconds());
    }
}
