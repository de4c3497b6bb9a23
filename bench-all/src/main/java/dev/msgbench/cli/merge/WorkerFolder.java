package dev.msgbench.cli.merge;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import org.HdrHistogram.Histogram;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.cli.report.IntervalSeries;
import dev.msgbench.core.UserError;
import dev.msgbench.core.record.HistogramKind;
import dev.msgbench.core.record.Recorders;
import dev.msgbench.core.result.IntervalLog;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.RunStatus;
import dev.msgbench.core.result.RunningMarker;

/**
 * One worker's results folder as merge reads it: its result.json, and every interval of its
 * latency.hlog (the .hgrm files are percentile text, which cannot be added).
 *
 * @param logStartMillis the log's StartTime, epoch ms
 * @param intervals      in log order, each with its kind's tag
 * @param counts         the rows of its intervals.csv; none where it has no such file (an older version's)
 * @param commits        its measured commit times, whole (commit.hlog); null where it has no such file: a run
 *                       without transactions, or an older version's
 */
public record WorkerFolder(Path dir, RunResult result, JsonNode tree, int index, int count, String runId,
                    long logStartMillis, List<Interval> intervals, List<IntervalSeries.Counts> counts,
                    Histogram commits) {

    /** One interval histogram of the log; times are epoch ms. */
    record Interval(HistogramKind kind, Histogram histogram, long startMillis, long endMillis) {
    }

    /** Interval start times are rounded to the millisecond when written (as MeasuredLatency allows). */
    private static final long ROUNDING_MILLIS = 1;

    static WorkerFolder read(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new UserError("merge DIR must be a worker's results folder, got '" + dir + "', which is not a folder");
        }
        if (Files.exists(dir.resolve(RunningMarker.FILE_NAME))) {
            throw new UserError("merge: " + dir + " is incomplete: its run was killed or is still running");
        }
        for (String file : List.of(ResultFiles.RESULT_JSON, IntervalLog.FILE_NAME)) {
            if (!Files.isRegularFile(dir.resolve(file))) {
                throw new UserError("merge: " + dir + " is incomplete: it has no " + file);
            }
        }
        RunResult result = ResultFiles.readResult(dir);
        if (result.status() != RunStatus.COMPLETE) {
            throw new UserError("merge: " + dir + " is incomplete: its run ended " + result.status().name().toLowerCase()
                    + (result.error() == null ? "" : " (" + result.error() + ")"));
        }
        JsonNode tree;
        try {
            tree = ResultFiles.json().readTree(dir.resolve(ResultFiles.RESULT_JSON).toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + dir.resolve(ResultFiles.RESULT_JSON), e);
        }
        JsonNode worker = tree.path("loadGenerator").path("worker");
        if (!worker.isObject()) {
            throw new UserError("merge: " + dir + " is not a worker's folder: its run was not given --workers");
        }
        List<Interval> intervals = new ArrayList<>();
        long logStart = IntervalSeries.forEachInterval(dir.resolve(IntervalLog.FILE_NAME), (kind, h, start, length) ->
                intervals.add(new Interval(kind, h, h.getStartTimeStamp(), h.getEndTimeStamp())));
        return new WorkerFolder(dir, result, tree, worker.path("workerIndex").asInt(), worker.path("workers").asInt(),
                worker.path("runId").asText(), logStart, intervals,
                IntervalSeries.readCounts(dir.resolve(IntervalLog.COUNTS_FILE_NAME)), commits(dir));
    }

    private static Histogram commits(Path dir) {
        Path file = dir.resolve(ResultFiles.COMMIT_LOG);
        return Files.isRegularFile(file) ? ResultFiles.readHistogramLog(file, "the run's commit times") : null;
    }

    /** The measured part starts this many ms after the log's StartTime. */
    long warmupMillis() {
        return Math.round(result.workload().warmupSeconds() * 1000);
    }

    /** Whether an interval belongs to the measured part: the rule of MeasuredLatency, which readers of one run use. */
    boolean measured(Interval interval) {
        return measured(interval.startMillis());
    }

    /** The same rule for a row of intervals.csv, whose times count from the log's StartTime. */
    boolean measured(IntervalSeries.Counts row) {
        return measured(logStartMillis + Math.round(row.startSeconds() * 1000));
    }

    private boolean measured(long startMillis) {
        return startMillis + ROUNDING_MILLIS >= logStartMillis + warmupMillis();
    }

    /** Each kind's measured histogram: the sum of its measured intervals. */
    Map<HistogramKind, Histogram> measured() {
        Map<HistogramKind, Histogram> sums = new EnumMap<>(HistogramKind.class);
        for (HistogramKind kind : HistogramKind.values()) {
            sums.put(kind, Recorders.newHistogram());
        }
        for (Interval interval : intervals) {
            if (measured(interval)) {
                sums.get(interval.kind()).add(interval.histogram());
            }
        }
        return sums;
    }
}
