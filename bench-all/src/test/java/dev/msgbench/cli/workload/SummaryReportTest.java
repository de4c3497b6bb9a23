package dev.msgbench.cli.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.cli.ExitCode;
import dev.msgbench.core.record.HistogramKind;
import dev.msgbench.core.record.Recorders;
import dev.msgbench.core.result.IntervalLog;
import dev.msgbench.core.result.Percentiles;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.result.Counts;
import dev.msgbench.core.result.Latencies;
import dev.msgbench.core.result.Rates;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.RunStatus;
import dev.msgbench.core.result.Throughput;
import dev.msgbench.core.result.Workload;

/**
 * The summary table from result folders written with the core's own writers: repetitions are
 * added as histograms (never percentiles averaged), warm-up intervals left out, failed and
 * skipped cells shown as such.
 */
class SummaryReportTest {

    private static final long T0 = 1_700_000_000_000L;
    private static final long MS = 1_000_000L;

    @TempDir
    Path dir;

    @Test
    void repetitionsAreAddedAsHistogramsAndEveryCellIsShown() throws Exception {
        Path rep1 = run("01-a/rep-1", 1 * MS, false, 1000);
        Path rep2 = run("01-a/rep-2", 3 * MS, true, 950);
        Path failed = dir.resolve("02-b");
        Path throughput = throughputRun("03-c");
        WorkloadFile file = new WorkloadFile("w.yaml", "W", "someone (2016)", null, "e2e", 2, List.of(), List.of(),
                Map.of(), List.of("p50", "p99", "max", "achieved-rate", "publisher-MiB/s", "sent", "lost"), List.of(), 1, null);
        List<SummaryReport.CellRun> runs = List.of(
                new SummaryReport.CellRun(cell(1, "a"), List.of("e2e", "--rate", "1000"), dir.resolve("01-a"), List.of(
                        ran(1, rep1), ran(2, rep2))),
                new SummaryReport.CellRun(cell(2, "b"), List.of("e2e"), failed, List.of(
                        SummaryReport.Repetition.ran(1, failed, ExitCode.USAGE, null))),
                new SummaryReport.CellRun(cell(3, "c"), List.of("throughput"), throughput, List.of(
                        ran(1, throughput))),
                new SummaryReport.CellRun(cell(4, "d"), List.of("e2e"), dir.resolve("04-d"), List.of(
                        SummaryReport.Repetition.notRun(1, dir.resolve("04-d")))));

        SummaryReport report = SummaryReport.of(file, 0.5, runs, dir, "2026-01-01T00:00:00Z");
        report.write(dir);
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        report.print(new PrintStream(printed, true, StandardCharsets.UTF_8));
        String text = printed.toString(StandardCharsets.UTF_8);

        assertTrue(report.anyFailed(), "a failed and a skipped cell");
        assertEquals(text, Files.readString(dir.resolve(SummaryReport.TEXT)));
        List<String> lines = text.lines().toList();
        assertEquals("W (someone (2016))", lines.get(1));
        assertEquals("    #  cell  p50 ms  p99 ms  max ms  achieved msg/s  publisher MiB/s   sent  lost  status", lines.get(4));
        assertEquals("  1.1  a      1.000   1.000   1.000           1,000                -    110     0  ok", lines.get(5));
        assertEquals("  1.2  a      3.000   3.000   3.000             950                -    110     0  RATE MISSED", lines.get(6));
        assertEquals("1.all  a      1.000   3.000   3.000             950                -    220     0  RATE MISSED",
                lines.get(7), "p50 of the added histograms is 1 ms: averaging percentiles would say 2");
        assertEquals("    2  b          -       -       -               -                -      -     -  FAILED (exit 2, "
                + "nothing measured)", lines.get(8));
        assertEquals("    3  c      5.001   5.001   5.001          10,000             9.77  1,000     0  ok", lines.get(9));
        assertEquals("    4  d          -       -       -               -                -      -     -  not run", lines.get(10));

        JsonNode json = ResultFiles.json().readTree(dir.resolve(SummaryReport.JSON).toFile());
        assertEquals(0.5, json.get("scale").asDouble());
        JsonNode a = json.get("cells").get(0);
        assertEquals("RATE MISSED", a.get("status").asText());
        assertEquals(List.of("e2e", "--rate", "1000"), List.of(a.get("args").get(0).asText(), a.get("args").get(1).asText(),
                a.get("args").get(2).asText()));
        assertEquals(950, a.get("values").get("achieved-rate").asDouble(), "the lowest of the repetitions");
        assertTrue(a.get("values").get("max").asDouble() < 10, "the warm-up's 1,000 ms values are left out");
        assertEquals(rep2.toString(), a.get("repetitions").get(1).get("folder").asText());
        assertEquals("FAILED (exit 2, nothing measured)", json.get("cells").get(1).get("status").asText());
        assertEquals("not run", json.get("cells").get(3).get("status").asText());
    }

    @Test
    void aProducerOnlyRunLosesNothing() throws Exception {
        Path out = Files.createDirectories(dir.resolve("p"));
        Workload workload = new Workload(Workload.UNPACED, 0, 500, 100, 100, 0, 600, "none", 1, 0, 1, 10);
        Throughput t = new Throughput(500, 0, 0.5, 1_000, 0.1, 0, 0, 0, 0);
        RunResult r = result("throughput", workload, 500, 0, 1_000, false, Map.of(), t);
        ResultFiles.writeResult(out, new RunResult(r.schemaVersion(), r.tool(), r.toolVersion(), r.command(), r.status(),
                r.error(), r.startedAt(), r.finishedAt(), r.system(), r.workload(), r.durability(), r.settings(),
                r.versions(), r.broker(), r.environment(), new Counts(500, 500, 0, 0, 0, 0, 0, 0, 0, 0, 0, 500),
                new Rates(0, 1_000, 0, false, 0), new Latencies(Map.of(), Map.of(), Map.of(), Map.of()), t, Map.of(),
                List.of(), Map.of(), List.of(), null));
        WorkloadFile file = new WorkloadFile("w.yaml", "W", null, null, "throughput", 1, List.of(), List.of(), Map.of(),
                List.of("publisher-msg/s", "consumer-msg/s", "sent", "lost"), List.of(), 1, null);
        SummaryReport report = SummaryReport.of(file, 1, List.of(new SummaryReport.CellRun(cell(1, "producer only"),
                List.of("throughput"), out, List.of(ran(1, out)))), dir, "now");
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        report.print(new PrintStream(printed, true, StandardCharsets.UTF_8));

        assertEquals("1  producer only            1,000               -   500     -  ok",
                printed.toString(StandardCharsets.UTF_8).lines().toList().get(5));
        assertFalse(report.anyFailed());
    }

    @Test
    void theMeasuredIntervalsOfTheLogGiveTheEnginesOwnHistogram() throws Exception {
        Path rep = run("r", 2 * MS, false, 1000);
        Histogram sum = MeasuredLatency.empty();
        assertTrue(MeasuredLatency.addTo(sum, rep, 1.0));
        assertEquals(100, sum.getTotalCount(), "the 10 warm-up values are left out");
        assertEquals(ResultFiles.readResult(rep).latenciesMs().latency().get("p99"), Percentiles.inMillis(sum).get("p99"));
        assertFalse(MeasuredLatency.addTo(sum, dir.resolve("missing"), 1.0));
    }

    /** A repetition that ended well, with the result its folder holds. */
    private static SummaryReport.Repetition ran(int number, Path folder) {
        return SummaryReport.Repetition.ran(number, folder, ExitCode.OK, ResultFiles.readResult(folder));
    }

    private static Cell cell(int index, String label) {
        return new Cell(index, label, "e2e", List.of(), new Origin("w.yaml:" + index));
    }

    /**
     * A result folder as an e2e run leaves it: one warm-up second of 10 values at 1,000 ms, then
     * one measured second of 100 values at {@code nanos}.
     */
    private Path run(String name, long nanos, boolean missed, double achieved) throws Exception {
        Path out = Files.createDirectories(dir.resolve(name));
        Histogram warm = Recorders.newHistogram();
        warm.recordValueWithCount(1000 * MS, 10);
        Histogram measured = Recorders.newHistogram();
        measured.recordValueWithCount(nanos, 100);
        try (IntervalLog log = new IntervalLog(out, T0, 1.0, 1.0)) {
            log.write(HistogramKind.LATENCY, warm, T0, T0 + 1000);
            log.write(HistogramKind.SERVICE, warm, T0, T0 + 1000);
            log.write(HistogramKind.LATENCY, measured.copy(), T0 + 1000, T0 + 2000);
        }
        Workload workload = new Workload(Workload.FIXED_RATE, 1000, 0, 0, 1024, 1.0, 1.0, "uniform", 1, 1, 1, 10);
        ResultFiles.writeResult(out, result("e2e", workload, 110, 1000, achieved, missed, Percentiles.inMillis(measured), null));
        return out;
    }

    private Path throughputRun(String name) throws Exception {
        Path out = Files.createDirectories(dir.resolve(name));
        Histogram measured = Recorders.newHistogram();
        measured.recordValueWithCount(5 * MS, 1000);
        try (IntervalLog log = new IntervalLog(out, T0, 0, 0.1)) {
            log.write(HistogramKind.LATENCY, measured.copy(), T0, T0 + 100);
        }
        Workload workload = new Workload(Workload.UNPACED, 0, 1000, 100, 1024, 0, 600, "none", 1, 1, 1, 10);
        Throughput t = new Throughput(1000, 1000, 0.1, 10_000, 10_000 * 1024 / 1048576.0, 0.1, 10_000, 9.77, 0);
        ResultFiles.writeResult(out, result("throughput", workload, 1000, 0, 10_000, false, Percentiles.inMillis(measured), t));
        return out;
    }

    private static RunResult result(String command, Workload workload, long sent, double target, double achieved,
                                    boolean missed, Map<String, Double> latency, Throughput throughput) {
        return new RunResult(RunResult.SCHEMA_VERSION, "msgbench", "test", command, RunStatus.COMPLETE, null,
                "2026-01-01T00:00:00Z", "2026-01-01T00:00:02Z", "kafka", workload, Map.of("acks", "all"), Map.of(),
                Map.of("tool", "test"), Map.of("local", true), Map.of(), new Counts(sent, sent, 0, sent, 0, 0, 0, 0, 0, 0, 0, sent),
                new Rates(target, achieved, achieved, missed, 0), new Latencies(latency, Map.of(), Map.of(), Map.of()),
                throughput, Map.of(), List.of(), Map.of(), List.of(), null);
    }
}
