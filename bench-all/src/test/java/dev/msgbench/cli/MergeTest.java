package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.msgbench.cli.report.Fixtures;
import dev.msgbench.cli.report.IntervalSeries;
import dev.msgbench.core.record.HistogramKind;
import dev.msgbench.core.record.Recorders;
import dev.msgbench.core.result.IntervalLog;
import dev.msgbench.core.result.IntervalSpans;
import dev.msgbench.core.result.Percentiles;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.result.RunResult;

/**
 * merge on workers of the in-JVM loopback system, run one after the other in this JVM: each
 * worker consumes only the streams it produces, so each can run alone.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MergeTest {

    @TempDir
    static Path dir;

    private static Path w0;
    private static Path w1;
    private static Path w1OtherSize;

    @BeforeAll
    static void runTwoWorkersAndOneOfAnotherWorkload() {
        w0 = worker("run", 0, "1KiB");
        w1 = worker("run", 1, "1KiB");
        w1OtherSize = worker("other", 1, "2KiB");
    }

    private static Path worker(String run, int index, String size) {
        Path out = dir.resolve(run);
        CliRun r = CliRun.of("e2e", "--system", "loopback", "--workers", "2", "--worker-index", String.valueOf(index),
                "--producers", "3", "--consumers", "2", "--rate", "600", "--warmup", "1s", "--duration", "2s",
                "--size", size, "--quiet", "--output", out.toString());
        assertEquals(0, r.exitCode, r.toString());
        return out.resolve("worker-" + index);
    }

    @Test
    void eachWorkerRecordsItsShareAndTheMergedResultTheTotals() {
        RunResult first = ResultFiles.readResult(w0);
        assertEquals(2, first.workload().producers(), "3 streams over 2 workers: the first takes 2");
        assertEquals(400, first.workload().rateMsgsPerSec(), 1e-9);
        Path merged = dir.resolve("merged");
        CliRun merge = CliRun.of("merge", w0.toString(), w1.toString(), "--output", merged.toString());
        assertEquals(0, merge.exitCode, merge.toString());
        RunResult result = ResultFiles.readResult(merged);
        assertEquals(3, result.workload().producers());
        assertEquals(2, result.workload().consumers());
        assertEquals(600, result.workload().rateMsgsPerSec(), 1e-9);
        assertEquals(600 * 3, result.counts().sent());
        assertEquals(2, ((Number) first.settings().get("producerThreads")).intValue(), "a thread per stream of its share");
        assertEquals(3, ((Number) result.settings().get("producerThreads")).intValue(), "the workers' threads added");
        assertEquals(0, CliRun.of("report", merged.toString()).exitCode);
    }

    /**
     * Each second of the merged intervals.csv holds the workers' counts of that second summed, and
     * the latency of the added histograms: its max is the highest of the workers' maxima (an
     * average of the workers' figures would be lower than that wherever they differ).
     */
    @Test
    void theMergedIntervalsCsvSumsTheWorkersCountsSecondBySecond() throws Exception {
        Path merged = dir.resolve("merged-intervals");
        assertEquals(0, CliRun.of("merge", w0.toString(), w1.toString(), "--output", merged.toString()).exitCode);

        Map<Long, long[]> workers = new TreeMap<>();
        Map<Long, Double> workersMaxMs = new TreeMap<>();
        for (Path worker : List.of(w0, w1)) {
            for (String[] row : csvRows(worker)) {
                long[] sum = workers.computeIfAbsent(Math.round(Double.parseDouble(row[0])), s -> new long[3]);
                for (int i = 0; i < 3; i++) {
                    sum[i] += Long.parseLong(row[2 + i]);
                }
                if (!row[9].isEmpty()) {
                    workersMaxMs.merge(Math.round(Double.parseDouble(row[0])), Double.parseDouble(row[9]), Math::max);
                }
            }
        }
        Map<Long, long[]> sums = new TreeMap<>();
        Map<Long, Double> mergedMaxMs = new TreeMap<>();
        for (String[] row : csvRows(merged)) {
            long second = Math.round(Double.parseDouble(row[0]));
            sums.put(second, new long[] {Long.parseLong(row[2]), Long.parseLong(row[3]), Long.parseLong(row[4])});
            if (!row[9].isEmpty()) {
                mergedMaxMs.put(second, Double.parseDouble(row[9]));
            }
        }

        assertEquals(workers.keySet(), sums.keySet());
        workers.forEach((second, sum) -> assertArrayEquals(sum, sums.get(second), "sent, acknowledged, received in second " + second));
        assertEquals(600 * 3, sums.values().stream().mapToLong(s -> s[0]).sum());
        assertEquals(workersMaxMs, mergedMaxMs);
        assertEquals(sums.values().stream().mapToLong(s -> s[2]).sum(),
                IntervalSeries.read(merged).counts().stream().mapToLong(IntervalSeries.Counts::received).sum(),
                "report reads the merged rows");
    }

    /** intervals.csv's rows, split; its columns are checked to be the ones this test reads. */
    private static List<String[]> csvRows(Path folder) throws Exception {
        List<String> lines = Files.readAllLines(folder.resolve(IntervalLog.COUNTS_FILE_NAME)).stream()
                .filter(l -> !l.startsWith("#")).toList();
        assertEquals("startSeconds,endSeconds,sent,acknowledged,received,unreceived,gaps,latencyP50Ms,latencyP99Ms,"
                + "latencyMaxMs,cpuBusyShare,cpuStealShare,generatorCores,brokerCores", lines.get(0));
        return lines.subList(1, lines.size()).stream().map(l -> l.split(",", -1)).toList();
    }

    /**
     * Past a run's first hour its intervals are longer than a second: a worker's 2 s intervals are
     * summed into 2 s intervals of the merged log, and the merged measured latency is the same.
     */
    @Test
    void workersWithCoarserIntervalsMergeIntoIntervalsAsLongAndTheSameLatency() throws Exception {
        Path fine = dir.resolve("merged-fine");
        Path coarse = dir.resolve("merged-coarse");
        assertEquals(0, CliRun.of("merge", w0.toString(), w1.toString(), "--output", fine.toString()).exitCode);
        CliRun merge = CliRun.of("merge", coarser(w0, "c0").toString(), coarser(w1, "c1").toString(), "--output",
                coarse.toString());
        assertEquals(0, merge.exitCode, merge.toString());

        assertEquals(ResultFiles.readResult(fine).latenciesMs(), ResultFiles.readResult(coarse).latenciesMs());
        List<Long> lengths = new java.util.ArrayList<>();
        IntervalSeries.forEachInterval(coarse.resolve(IntervalLog.FILE_NAME), (kind, h, start, length) -> {
            if (kind == HistogramKind.LATENCY) {
                lengths.add(Math.round(length));
            }
        });
        assertEquals(2L, lengths.get(1), "the merged intervals after the first second: " + lengths);
    }

    /** A copy of a worker's folder whose log has one-second intervals for the warm-up (1 s), then 2 s ones. */
    private static Path coarser(Path worker, String name) throws Exception {
        Path copy = copy(worker, name);
        Files.delete(copy.resolve(IntervalLog.FILE_NAME));
        List<Object[]> intervals = new java.util.ArrayList<>();
        long startMillis = IntervalSeries.forEachInterval(worker.resolve(IntervalLog.FILE_NAME), (kind, h, start, length) ->
                intervals.add(new Object[] {kind, h}));
        try (IntervalLog log = new IntervalLog(copy, startMillis, 1, 2).coarsen(new IntervalSpans(1, 2, 1L << 30), 1, 3)) {
            for (Object[] interval : intervals) {
                Histogram h = (Histogram) interval[1];
                log.write((HistogramKind) interval[0], h, h.getStartTimeStamp(), h.getEndTimeStamp());
            }
        }
        // the log's constructor began a new intervals.csv: the worker's own rows are the ones to merge
        Files.copy(worker.resolve(IntervalLog.COUNTS_FILE_NAME), copy.resolve(IntervalLog.COUNTS_FILE_NAME),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        return copy;
    }

    /** A copy of a worker's folder, below {@code name}. */
    private static Path copy(Path worker, String name) throws Exception {
        Path copy = Files.createDirectories(dir.resolve(name).resolve(worker.getFileName()));
        try (var files = Files.list(worker)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Files.copy(file, copy.resolve(file.getFileName()));
            }
        }
        return copy;
    }

    /**
     * Kafka's workers in transactions, as fixtures: each worker's commit times are far apart from
     * the other's, so percentiles of the added histograms differ from any mean of the workers'; and
     * the broker's byte ratios are 1.0 and 0.333, whose mean (0.667) is not the ratio of the sums.
     */
    @Test
    void theWorkersAbortsCommitTimesAndBrokerBytesAreAddedNeverAveraged() throws Exception {
        Histogram fast = Fixtures.eachMillisUpTo(100);
        Histogram slow = Recorders.newHistogram();
        slow.recordValueWithCount(50_000_000L, 1_000);
        Path t0 = transactional(w0, "txn", fast, 40, 0, Map.of("bytes", 1_000, "sentBytes", 1_000));
        Path t1 = transactional(w1, "txn", slow, 60, 1, Map.of("bytes", 1_000, "sentBytes", 3_000));
        Path merged = dir.resolve("merged-txn");

        CliRun merge = CliRun.of("merge", t0.toString(), t1.toString(), "--output", merged.toString());

        assertEquals(0, merge.exitCode, merge.toString());
        RunResult result = ResultFiles.readResult(merged);
        assertEquals(100L, result.counts().aborted());
        assertEquals(1L, result.counts().abortedDelivered());
        Histogram added = fast.copy();
        added.add(slow);
        assertEquals(Percentiles.inMillis(added), result.latenciesMs().commit());
        assertEquals(1_100.0, result.latenciesMs().commit().get("count"));
        assertEquals(Percentiles.inMillis(added), Percentiles.inMillis(ResultFiles.readHistogramLog(
                merged.resolve(ResultFiles.COMMIT_LOG), "the commits")), "the merged folder can be merged again");
        assertEquals(ResultFiles.COMMIT_LOG, result.files().get("commitLog"));
        assertTrue(Files.isRegularFile(merged.resolve(result.files().get("commit"))));
        assertEquals(Map.of("counter", COUNTER, "bytes", 2_000, "sentBytes", 4_000, "ratio", 0.5), result.brokerBytes());
        assertTrue(merge.out.contains("  aborted on purpose 100 (never acknowledged, not counted as lost)   delivered all "
                + "the same 1"), merge.out);
        assertTrue(merge.out.contains("  broker bytes 2,000 for 4,000 B sent, 0.500x (" + COUNTER + ")"), merge.out);
        assertTrue(merge.out.contains("commit ms"), merge.out);
    }

    /**
     * A worker of a version that kept only its commits' percentiles, or whose broker's counter could not
     * be read: nothing of the kind can be added, so the merged result has none, and says why.
     */
    @Test
    void aWorkerWithoutItsCommitHistogramOrByteCountLeavesThemOutOfTheMergedResultAndSaysSo() throws Exception {
        Histogram commits = Recorders.newHistogram();
        commits.recordValue(2_000_000L);
        Path t0 = transactional(w0, "txn-older", commits, 10, 0, Map.of("bytes", 1_000, "sentBytes", 1_000));
        Path t1 = transactional(w1, "txn-older", commits, 10, 0, null);
        Files.delete(t1.resolve(ResultFiles.COMMIT_LOG));
        Path merged = dir.resolve("merged-txn-older");

        CliRun merge = CliRun.of("merge", t0.toString(), t1.toString(), "--output", merged.toString());

        assertEquals(0, merge.exitCode, merge.toString());
        RunResult result = ResultFiles.readResult(merged);
        assertEquals(null, result.latenciesMs().commit());
        assertEquals(null, result.brokerBytes());
        assertFalse(Files.exists(merged.resolve(ResultFiles.COMMIT_LOG)));
        assertTrue(result.warnings().contains("worker 1 has no commit.hlog (a version that kept only the commits' "
                + "percentiles): the merged result has no commit times"), result.warnings().toString());
        assertTrue(result.warnings().contains("worker 1 has no broker byte count: the merged result has none"),
                result.warnings().toString());
        assertEquals(20L, result.counts().aborted());
    }

    /**
     * A Kafka share group's workers (fixtures): each worker's client counted its own redeliveries, so
     * the counts differ and are no difference of settings; the merged result keeps each worker's.
     */
    @Test
    void eachWorkersOwnCountOfRedeliveriesIsKeptAndNotTakenForADifferenceOfSettings() throws Exception {
        List<Path> shares = new java.util.ArrayList<>();
        for (Path worker : List.of(w0, w1)) {
            Path copy = copy(worker, "share");
            String witness = "Kafka's delivery count: " + (46 + shares.size()) + " records received more than once, 50 "
                    + "released on purpose (one first delivery in 10)";
            ObjectNode json = (ObjectNode) ResultFiles.json().readTree(copy.resolve(ResultFiles.RESULT_JSON).toFile());
            ((ObjectNode) json.get("settings")).putObject("delivery").put("label", "Kafka share group: at-least-once, "
                    + "no order promised").put("order", "not promised: reorders are counted, not faults")
                    .put("redeliveries", "by design (at-least-once): each is counted as a duplicate, not as a fault")
                    .put("witness", witness);
            ResultFiles.json().writeValue(copy.resolve(ResultFiles.RESULT_JSON).toFile(), json);
            shares.add(copy);
        }
        Path merged = dir.resolve("merged-share");

        CliRun merge = CliRun.of("merge", shares.get(0).toString(), shares.get(1).toString(), "--output", merged.toString());

        assertEquals(0, merge.exitCode, merge.toString());
        Map<?, ?> delivery = (Map<?, ?>) ResultFiles.readResult(merged).settings().get("delivery");
        assertEquals("worker 0: Kafka's delivery count: 46 records received more than once, 50 released on purpose (one "
                + "first delivery in 10); worker 1: Kafka's delivery count: 47 records received more than once, 50 released "
                + "on purpose (one first delivery in 10)", delivery.get("witness"));
        assertEquals("Kafka share group: at-least-once, no order promised", delivery.get("label"));
    }

    private static final String COUNTER = "kafka: the run's partition logs (describeLogDirs, one replica each)";

    /** A copy of a worker's folder as a Kafka worker in transactions writes it; {@code brokerBytes} null for none. */
    private static Path transactional(Path worker, String name, Histogram commits, long aborted, long abortedDelivered,
                                      Map<String, Integer> brokerBytes) throws Exception {
        Path copy = copy(worker, name);
        ResultFiles.writeHistogramLog(copy.resolve(ResultFiles.COMMIT_LOG), HistogramKind.COMMIT, commits);
        ObjectNode json = (ObjectNode) ResultFiles.json().readTree(copy.resolve(ResultFiles.RESULT_JSON).toFile());
        ((ObjectNode) json.get("counts")).put("aborted", aborted).put("abortedDelivered", abortedDelivered);
        ((ObjectNode) json.get("latenciesMs")).set("commit", ResultFiles.json().valueToTree(Percentiles.inMillis(commits)));
        if (brokerBytes != null) {
            ObjectNode bytes = json.putObject("brokerBytes").put("counter", COUNTER);
            brokerBytes.forEach(bytes::put);
        }
        ResultFiles.json().writeValue(copy.resolve(ResultFiles.RESULT_JSON).toFile(), json);
        return copy;
    }

    @Test
    void workersOfDifferentWorkloadsAreRefusedNamingTheSetting() {
        CliRun merge = CliRun.of("merge", w0.toString(), w1OtherSize.toString(), "--output", dir.resolve("x").toString());
        assertEquals(2, merge.exitCode);
        assertEquals("error: merge: the folders are not workers of one run: workload.messageSizeBytes is 1024 in " + w0
                + " but 2048 in " + w1OtherSize + System.lineSeparator(), merge.err);
    }

    @Test
    void aWorkerGivenTwiceOrMissingIsRefusedNamingIt() {
        CliRun twice = CliRun.of("merge", w0.toString(), w0.toString(), "--output", dir.resolve("y").toString());
        assertEquals(2, twice.exitCode);
        assertEquals("error: merge: worker 0 is given twice: " + w0 + " and " + w0 + System.lineSeparator(), twice.err);
        CliRun missing = CliRun.of("merge", w1.toString(), "--output", dir.resolve("z").toString());
        assertEquals(2, missing.exitCode);
        assertEquals("error: merge: worker 0 of 2 is missing; give the folders of all 2 workers" + System.lineSeparator(),
                missing.err);
    }

    @Test
    void anIncompleteFolderIsRefused() throws Exception {
        Path copy = Files.createDirectories(dir.resolve("incomplete"));
        Files.copy(w1.resolve(ResultFiles.RESULT_JSON), copy.resolve(ResultFiles.RESULT_JSON));
        CliRun merge = CliRun.of("merge", w0.toString(), copy.toString(), "--output", dir.resolve("w").toString());
        assertEquals(2, merge.exitCode);
        assertEquals("error: merge: " + copy + " is incomplete: it has no " + IntervalLog.FILE_NAME
                + System.lineSeparator(), merge.err);
    }
}
