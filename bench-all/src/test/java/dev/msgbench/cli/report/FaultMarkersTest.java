package dev.msgbench.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.fault.FaultPlan;
import dev.msgbench.core.fault.FaultSpec;
import dev.msgbench.core.run.Backlog;
import dev.msgbench.core.run.FakeClockRuns;
import dev.msgbench.core.run.Pacing;
import dev.msgbench.core.run.RunSpec;
import dev.msgbench.core.testing.InMemorySystem;
import dev.msgbench.core.testing.ManualClock;
import dev.msgbench.core.time.Arrival;

/** The report reads a run's faults from result.json and marks them on its over-time charts. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FaultMarkersTest {

    @TempDir
    Path dir;

    @Test
    void eachFaultIsALabelledLineOnBothOverTimeChartsAndALineOfThePage() throws Exception {
        Path runDir = dir.resolve("paused");
        ManualClock clock = new ManualClock(0);
        InMemorySystem system = new InMemorySystem(clock);
        RunSpec config = new RunSpec("e2e", "in-memory", new Pacing.FixedRate(200, Arrival.UNIFORM,
                Duration.ofSeconds(1), Duration.ofSeconds(3)), 256, 1, 1, 7, Duration.ofSeconds(10), Duration.ofSeconds(5),
                runDir, false, Map.of("local", true))
                .withFaults(new FaultPlan(List.of(FaultSpec.parse("pause=700ms@1s")), FaultPlan.DEFAULT_TIMEOUT));
        FakeClockRuns.loadRun(config, system, system, clock,
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)).execute();
        RunFolder run = RunFolder.read(runDir, "paused");
        assertEquals(1, run.result().faults().size());

        // asked 1 s after a warm-up of 1 s: at 1 on the charts, which count from the warm-up's end as the faults do
        assertEquals(List.of(new OverTimeCharts.FaultMarker(1.0, "pause n1")), OverTimeCharts.faultMarkers(run));
        Path charts = dir.resolve("charts");
        for (Charts.Chart chart : List.of(OverTimeCharts.latencyOverTime(run, 0), OverTimeCharts.throughputOverTime(run, 0))) {
            assertTrue(ChartFiles.write(chart, charts).length > 0, chart.fileStem());
        }
        String page = HtmlPage.render("t", List.of(run), List.of(), List.of(new HtmlPage.RunFigures(run, List.of())),
                List.of(), "charts");
        assertTrue(page.contains("<li>fault pause=700ms@1s (node 1): asked 1.000 s, done 1.000 s, ended 1.700 s;"), page);
    }

    @Test
    void theBacklogsReleaseAndDrainAreLabelledLinesAndALineOfThePage() throws Exception {
        Path runDir = dir.resolve("backlog");
        ManualClock clock = new ManualClock(0);
        RunSpec config = new RunSpec("e2e", "in-memory", new Pacing.FixedRate(200, Arrival.UNIFORM,
                Duration.ofSeconds(1), Duration.ofSeconds(2)), 256, 1, 1, 7, Duration.ofSeconds(10), Duration.ofSeconds(5),
                runDir, false, Map.of("local", true));
        FakeClockRuns.loadRun(config, new InMemorySystem(clock).retaining(), clock,
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), Backlog.parse("300")).execute();
        RunFolder run = RunFolder.read(runDir, "backlog");

        // message 300 is due at 1.495 s, and the gate looks every 5 ms; the in-memory log replays the backlog as the
        // consumer subscribes
        List<OverTimeCharts.FaultMarker> markers = OverTimeCharts.backlogMarkers(run);
        assertEquals(List.of("released", "drained"), markers.stream().map(OverTimeCharts.FaultMarker::label).toList());
        // released at 1.495 s to 1.5 s from the log's start: 0.495 s to 0.5 s after the warm-up of 1 s, where the charts count from
        double released = markers.get(0).seconds();
        assertTrue(released >= 0.495 && released <= 0.5, markers.toString());
        String page = HtmlPage.render("t", List.of(run), List.of(), List.of(new HtmlPage.RunFigures(run, List.of())),
                List.of(), "charts");
        assertTrue(page.contains("<li>backlog 300 messages: reached at "), page);
    }
}
