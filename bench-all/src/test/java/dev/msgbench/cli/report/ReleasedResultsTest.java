package dev.msgbench.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.record.HistogramKind;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.RunStatus;

/**
 * Result folders written by released versions (src/test/resources/released-results, where a
 * README says how they were made) read with today's readers: the core's result.json reader,
 * HdrHistogram's log reader, and the report's. A change that breaks them fails here, so the
 * formats change only on purpose. Values are the ones those runs wrote.
 */
class ReleasedResultsTest {

    private static Path folder(String name) throws URISyntaxException {
        return Path.of(ReleasedResultsTest.class.getResource("/released-results/" + name).toURI());
    }

    @Test
    void aLoopbackE2eRunOfVersion010ReadsBackWholeWithTodaysReaders() throws Exception {
        RunFolder run = RunFolder.read(folder("v0.1.0/e2e-loopback"), "e2e-loopback");
        RunResult r = run.result();

        assertEquals(1, r.schemaVersion());
        assertEquals("0.1.0-SNAPSHOT", r.toolVersion());
        assertEquals("e2e", r.command());
        assertEquals(RunStatus.COMPLETE, r.status());
        assertNull(r.error());
        assertEquals("loopback", r.system());
        assertEquals("fixed-rate", r.workload().pacing());
        assertEquals(500.0, r.workload().rateMsgsPerSec());
        assertEquals(256, r.workload().messageSizeBytes());
        assertEquals(1.0, r.workload().warmupSeconds());
        assertEquals(2.0, r.workload().durationSeconds());
        assertEquals(Map.of("acks", "none (no broker: messages go from thread to thread in this JVM)"), r.durability());
        assertEquals(1_500, r.counts().sent());
        assertEquals(1_500, r.counts().received());
        assertEquals(1_000, r.counts().measuredSent());
        assertEquals(0, r.counts().lost() + r.counts().duplicated() + r.counts().reordered() + r.counts().unsent());
        assertEquals(500.0, r.rates().achievedMsgsPerSec());
        assertEquals(1_000.0, r.latenciesMs().latency().get("count"));
        assertEquals(0.014711, r.latenciesMs().latency().get("p50"));
        assertEquals(2.465791, r.latenciesMs().latency().get("p99"));
        assertEquals(8.888319, r.latenciesMs().latency().get("max"));
        assertEquals(List.of(), r.warnings());
        assertEquals("latency.hlog", r.files().get("intervalLog"));

        assertEquals(8.888, run.latency().maxMs(), "from latency.hgrm, in ms to three decimals");
        assertEquals(1.0, run.intervals().warmupSeconds());
        assertEquals(4, run.intervals().of(HistogramKind.LATENCY).size());
        assertEquals(1_500, run.intervals().of(HistogramKind.LATENCY).stream().mapToLong(IntervalSeries.Interval::count).sum());
        assertEquals(Map.of(HistogramKind.LATENCY, 1_500L, HistogramKind.SERVICE, 1_500L, HistogramKind.SEND_DELAY, 1_500L,
                HistogramKind.HICCUP, 2_710L), countsInLog(run.dir()));
    }

    @Test
    void aLoopbackThroughputRunOfVersion010ReadsBackWithItsRatesAtBothEnds() throws Exception {
        RunFolder run = RunFolder.read(folder("v0.1.0/throughput-loopback"), "throughput-loopback");
        RunResult r = run.result();

        assertEquals(1, r.schemaVersion());
        assertEquals("throughput", r.command());
        assertEquals(RunStatus.COMPLETE, r.status());
        assertEquals("unpaced", r.workload().pacing());
        assertEquals(5_000, r.workload().messages());
        assertEquals(131_072, r.workload().maxOutstanding());
        assertEquals(5_000, r.throughput().sent());
        assertEquals(5_000, r.throughput().received());
        assertEquals(144_137.59536287448, r.throughput().publisherMsgsPerSec());
        assertEquals(100_495.5718033223, r.throughput().consumerMsgsPerSec());
        assertEquals(0.034689076, r.throughput().publishSeconds());
        assertEquals(21.610495, r.latenciesMs().latency().get("max"));
        assertEquals(1, run.intervals().of(HistogramKind.LATENCY).size());
        assertEquals(5_000, run.intervals().of(HistogramKind.LATENCY).get(0).count());
    }

    @Test
    void aNatsRunOfVersion010KeepsItsDurabilitySettingsAndVersions() throws Exception {
        RunFolder run = RunFolder.read(folder("v0.1.0/e2e-nats"), "e2e-nats");
        RunResult r = run.result();

        assertEquals(1, r.schemaVersion());
        assertEquals("nats", r.system());
        assertEquals(RunStatus.COMPLETE, r.status());
        assertEquals(Map.of("acks", "0", "persistence", "none (core NATS is at-most-once)",
                "publisherAcknowledgement", "none (core NATS has none)"), r.durability());
        assertEquals(Map.of("tool", "0.1.0-SNAPSHOT", "client", "jnats 2.26.2", "broker", "2.15.2"), r.versions());
        assertEquals("pubsub", r.settings().get("pattern"));
        assertEquals(true, r.broker().get("local"));
        assertEquals(1_500, r.counts().received());
        assertEquals(0, r.counts().acknowledged());
        assertEquals(12.312575, r.latenciesMs().latency().get("max"));
        assertEquals(1.0, run.intervals().warmupSeconds());
        assertEquals(3, run.intervals().of(HistogramKind.LATENCY).size());
        assertEquals(1_500, countsInLog(run.dir()).get(HistogramKind.LATENCY));
    }

    @Test
    void theReleasedFoldersMakeAWholeReportOnTodaysTimeBase(@TempDir Path out) throws Exception {
        List<Path> folders = List.of(folder("v0.1.0/e2e-loopback"), folder("v0.1.0/e2e-nats"),
                folder("v0.1.0/throughput-loopback"));

        Report.Written written = Report.write(folders, out.resolve("report.html"));

        assertEquals(List.of(), written.leftOut());
        // the percentile chart and both over-time charts of each run; the throughput run's latency lasted 35 ms, too
        // short a second to draw
        assertEquals(12, written.chartFiles().size(), written.chartFiles().toString());
        RunFolder run = RunFolder.read(folders.get(0), "e2e-loopback");
        Charts.Chart latency = OverTimeCharts.latencyOverTime(run, 0);
        assertEquals(-1.0, latency.xchart().getStyler().getXAxisMin(), "its warm-up of 1 s, negative");
        assertEquals(List.of(), OverTimeCharts.gapBands(run));
        String page = Files.readString(written.html());
        assertTrue(page.contains("<h2>Over time</h2>") && !page.contains("price-of-safety"), "no view of runs together");
    }

    @Test
    void theCoresOwnReaderReadsTheSameResult() throws Exception {
        assertEquals(RunFolder.read(folder("v0.1.0/e2e-nats"), "x").result(), ResultFiles.readResult(folder("v0.1.0/e2e-nats")));
    }

    /** Values per kind in the whole interval log, warm-up included, as HdrHistogram's own reader sees it. */
    private static Map<HistogramKind, Long> countsInLog(Path dir) throws Exception {
        Map<HistogramKind, Long> counts = new java.util.EnumMap<>(HistogramKind.class);
        HistogramLogReader reader = new HistogramLogReader(dir.resolve("latency.hlog").toFile());
        EncodableHistogram h;
        while ((h = reader.nextIntervalHistogram()) != null) {
            counts.merge(HistogramKind.ofTag(h.getTag()), ((Histogram) h).getTotalCount(), Long::sum);
        }
        return counts;
    }
}
