package dev.msgbench.cli.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.HdrHistogram.Histogram;

import dev.msgbench.core.record.HistogramKind;
import dev.msgbench.core.record.Recorders;
import dev.msgbench.core.result.IntervalLog;
import dev.msgbench.core.result.Percentiles;
import dev.msgbench.core.result.RunResult;

/**
 * One side of a comparison: one run, or several runs (repeats) taken together.
 *
 * <p>One run is taken as its result.json says. Several runs are added up, never averaged: their
 * latency histograms are the sums of the interval histograms of each latency.hlog from the end
 * of its warm-up on (so a message intended in the warm-up but received after it counts too,
 * which result.json leaves out), counts are summed, and rates are measured messages over
 * measured seconds of all runs together.
 *
 * @param latencyMs    percentiles, max, min, mean and count as result.json keys them; empty when
 *                     nothing was measured
 * @param environments each run's {@code environment} (null for a result written without one)
 * @param perRun       each run's own figures as result.json gives them, by {@link Regression}'s metric names
 *                     (p50..p99.9999, max, mean, sent-rate, received-rate), for the verdicts over repeats
 */
public record CompareSide(String description, int runs, double targetRate, double sentRate, double receivedRate,
                   Map<String, Double> latencyMs, long sent, long lost, long acknowledgedLost,
                   List<Map<String, Object>> environments, List<Map<String, Double>> perRun) {

    /** An interval that starts this close before the warm-up's end starts with it (rounding of the log's seconds). */
    private static final double BOUNDARY_SLACK_SECONDS = 0.0015;

    static CompareSide of(String description, List<RunFolder> folders) {
        if (folders.size() == 1) {
            RunResult r = folders.get(0).result();
            Map<String, Double> latency = r.latenciesMs().latency() == null ? Map.of() : r.latenciesMs().latency();
            return new CompareSide(description + " (" + folders.get(0).label() + ")", 1, r.rates().targetMsgsPerSec(),
                    r.rates().achievedMsgsPerSec(), r.rates().receivedMsgsPerSec(), latency, r.counts().sent(),
                    r.counts().lost(), r.counts().acknowledgedLost(), environments(folders), perRun(folders));
        }
        Histogram latency = Recorders.newHistogram();
        double seconds = 0;
        double targetMessages = 0;
        double sentMessages = 0;
        double receivedMessages = 0;
        long sent = 0;
        long lost = 0;
        long acknowledgedLost = 0;
        for (RunFolder folder : folders) {
            RunResult r = folder.result();
            addMeasured(folder, latency);
            double measuredSeconds = r.workload() == null ? 0 : r.workload().durationSeconds();
            seconds += measuredSeconds;
            targetMessages += r.rates().targetMsgsPerSec() * measuredSeconds;
            sentMessages += r.rates().achievedMsgsPerSec() * measuredSeconds;
            receivedMessages += r.rates().receivedMsgsPerSec() * measuredSeconds;
            sent += r.counts().sent();
            lost += r.counts().lost();
            acknowledgedLost += r.counts().acknowledgedLost();
        }
        return new CompareSide(description + " (" + folders.size() + " runs, histograms added)", folders.size(),
                per(targetMessages, seconds), per(sentMessages, seconds), per(receivedMessages, seconds),
                Percentiles.inMillis(latency), sent, lost, acknowledgedLost, environments(folders), perRun(folders));
    }

    private static List<Map<String, Object>> environments(List<RunFolder> folders) {
        List<Map<String, Object>> environments = new ArrayList<>(folders.size());
        for (RunFolder folder : folders) {
            environments.add(folder.result().environment());
        }
        return environments;
    }

    /** Each run's figures, its percentiles as its result.json has them: a run's own, not its share of a sum. */
    private static List<Map<String, Double>> perRun(List<RunFolder> folders) {
        List<Map<String, Double>> runs = new ArrayList<>(folders.size());
        for (RunFolder folder : folders) {
            RunResult r = folder.result();
            Map<String, Double> figures = new LinkedHashMap<>();
            if (r.latenciesMs().latency() != null) {
                figures.putAll(r.latenciesMs().latency());
            }
            figures.put(Regression.SENT_RATE, r.rates().achievedMsgsPerSec());
            figures.put(Regression.RECEIVED_RATE, r.rates().receivedMsgsPerSec());
            runs.add(figures);
        }
        return runs;
    }

    private static void addMeasured(RunFolder folder, Histogram sum) {
        java.nio.file.Path hlog = folder.dir().resolve(IntervalLog.FILE_NAME);
        if (!java.nio.file.Files.isRegularFile(hlog)) {
            throw new dev.msgbench.core.UserError("compare: " + hlog + " is missing, and several runs can only be"
                    + " compared by adding their histograms; compare one run per side instead");
        }
        double warmup = IntervalSeries.warmupSeconds(hlog);
        IntervalSeries.forEachInterval(hlog, (kind, h, start, length) -> {
            if (kind == HistogramKind.LATENCY && start >= warmup - BOUNDARY_SLACK_SECONDS) {
                sum.add(h);
            }
        });
    }

    private static double per(double messages, double seconds) {
        return seconds > 0 ? messages / seconds : 0;
    }
}
