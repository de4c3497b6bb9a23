package dev.msgbench.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.XYSeries;

import dev.msgbench.core.record.HistogramKind;
import dev.msgbench.core.result.IntervalLog;
import dev.msgbench.core.result.IntervalSpans;
import dev.msgbench.core.testing.TakesSeconds;

/** A day-long folder, as a run writes its intervals (seconds for an hour, then ten-second ones), as report draws it. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReportOfADayTest {

    private static final int DAY_SECONDS = 86_400;
    private static final long START_MILLIS = 1_795_568_584_968L;

    @TempDir
    Path dir;

    @Test
    @TakesSeconds
    void aDayIsReadAsOneFigureSetPerIntervalAndDrawnWithAtMostTheMaximumOfPoints() throws Exception {
        Path run = Fixtures.run(dir.resolve("day"), "nats", 1000);
        Files.delete(run.resolve(IntervalLog.FILE_NAME));
        Files.delete(run.resolve(IntervalLog.COUNTS_FILE_NAME));
        writeDay(run);

        RunFolder folder = RunFolder.read(run, "day");

        assertEquals(3600 + (DAY_SECONDS - 3600) / 10, folder.intervals().of(HistogramKind.LATENCY).size());
        assertEquals(DAY_SECONDS, folder.intervals().counts().size());
        for (Charts.Chart chart : java.util.List.of(OverTimeCharts.latencyOverTime(folder, 0), OverTimeCharts.throughputOverTime(folder, 0))) {
            for (XYSeries series : chart.xchart().getSeriesMap().values()) {
                assertTrue(series.getXData().length <= Charts.MAX_POINTS, chart.title() + " " + series.getName() + ": "
                        + series.getXData().length + " points");
            }
        }
        XYSeries max = OverTimeCharts.latencyOverTime(folder, 0).xchart().getSeriesMap().get("max");
        assertEquals(250.0, max.getYMax(), 1.0, "the one-second spike at 50,000 s stays visible");
    }

    /** 10 values a second, 1 ms each, but a 250 ms spike at 50,000 s; one message sent and received per value (intervals.csv). */
    private static void writeDay(Path run) throws java.io.IOException {
        Histogram second = new Histogram(1, 10_000_000_000L, 2);
        try (IntervalLog log = new IntervalLog(run, START_MILLIS, 0, DAY_SECONDS).coarsen(IntervalSpans.DEFAULT, 0,
                DAY_SECONDS)) {
            for (int s = 0; s < DAY_SECONDS; s++) {
                second.reset();
                second.recordValueWithCount(1_000_000, 10);
                if (s == 50_000) {
                    second.recordValue(250_000_000);
                }
                long from = START_MILLIS + s * 1000L;
                for (HistogramKind kind : new HistogramKind[] {HistogramKind.LATENCY, HistogramKind.SEND_DELAY}) {
                    log.write(kind, second, from, from + 1000);
                }
            }
        }
        // written at once rather than row by row: the rows are what report reads, and a day of flushes is slow
        StringBuilder csv = new StringBuilder("startSeconds,endSeconds,sent,acknowledged,received,unreceived,gaps,"
                + "latencyP50Ms,latencyP99Ms,latencyMaxMs\n");
        for (int s = 0; s < DAY_SECONDS; s++) {
            csv.append(s).append(".000,").append(s + 1).append(".000,10,0,10,0,0,1.0,1.0,1.0\n");
        }
        Files.writeString(run.resolve(IntervalLog.COUNTS_FILE_NAME), csv);
    }
}
