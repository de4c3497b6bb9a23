package dev.msgbench.cli.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.RunStatus;

/**
 * The price-of-safety view's cells, gathered from every run and sweep of a report: a run at a
 * stated rate without a fault gives its cell's latency (on forgetful disks: what the fault layer
 * costs), a throughput run without a fault the highest rate the cell sustains, a run with a power
 * loss or a kill its acknowledged loss, a sweep its knee. Other runs (a pause, a restart) give
 * nothing here.
 */
final class SafetyCells {

    private SafetyCells() {
    }

    /**
     * The cells in the order their first run or sweep comes; empty unless a run measured a loss
     * and another run or a sweep measured latency or a knee to set it beside.
     */
    static List<SafetyCell> of(List<RunFolder> runs, List<LoadCurve> curves) {
        Map<DurabilityCell, List<RunFolder>> steady = new LinkedHashMap<>();
        Map<DurabilityCell, List<RunFolder>> onLayer = new LinkedHashMap<>();
        Map<DurabilityCell, List<Double>> highest = new LinkedHashMap<>();
        Map<DurabilityCell, Map<LossKey, LossFigure>> losses = new LinkedHashMap<>();
        Map<DurabilityCell, List<Double>> knees = new LinkedHashMap<>();
        for (RunFolder run : runs) {
            RunResult r = run.result();
            if (r == null) {
                continue;
            }
            DurabilityCell cell = DurabilityCell.of(r);
            LossKey key = LossKey.of(r);
            if (key != null) {
                losses.computeIfAbsent(cell, c -> new TreeMap<>(Comparator.comparingInt(LossKey::rank)))
                        .merge(key, LossFigure.of(r), LossFigure::plus);
            } else if (!r.faults().isEmpty() || r.status() != RunStatus.COMPLETE) {
                continue;
            } else if (r.throughput() != null) {
                // a throughput run's latency is that of a queue it filled as fast as it could: only its rate counts
                highest.computeIfAbsent(cell, c -> new ArrayList<>()).add(sustained(r));
            } else if (r.workload() != null && r.workload().rateMsgsPerSec() > 0 && r.latenciesMs().latency() != null) {
                (onForgetfulDisks(r) ? onLayer : steady).computeIfAbsent(cell, c -> new ArrayList<>()).add(run);
            }
        }
        for (LoadCurve curve : curves) {
            if (curve.knee() != null) {
                knees.computeIfAbsent(curve.cell(), c -> new ArrayList<>()).add(curve.knee());
            }
        }
        if (losses.isEmpty() || steady.isEmpty() && knees.isEmpty() && highest.isEmpty()) {
            // a run with a kill and nothing to set it beside is a run, not a price
            return List.of();
        }
        List<DurabilityCell> order = new ArrayList<>();
        for (Map<DurabilityCell, ?> map : List.of(steady, highest, losses, onLayer, knees)) {
            map.keySet().stream().filter(c -> !order.contains(c)).forEach(order::add);
        }
        List<SafetyCell> cells = new ArrayList<>();
        for (DurabilityCell cell : order) {
            cells.add(new SafetyCell(cell, latency(steady.getOrDefault(cell, List.of())),
                    latency(onLayer.getOrDefault(cell, List.of())), knees.getOrDefault(cell, List.of()),
                    highest.getOrDefault(cell, List.of()), losses.getOrDefault(cell, Map.of())));
        }
        return cells;
    }

    /** Acknowledged and delivered: the lower of the publisher's rate and, where there were consumers, theirs. */
    private static double sustained(RunResult r) {
        double publisher = r.throughput().publisherMsgsPerSec();
        return r.throughput().received() > 0 ? Math.min(publisher, r.throughput().consumerMsgsPerSec()) : publisher;
    }

    /** A run the fault layer was under: its latency is the layer's as much as the system's. */
    static boolean onForgetfulDisks(RunResult r) {
        return r.broker() != null && Boolean.TRUE.equals(r.broker().get("forgetfulDisks"));
    }

    /** Every loss key of the cells, the one that tells more first: the table's columns. */
    static List<LossKey> lossKeys(List<SafetyCell> cells) {
        return cells.stream().flatMap(c -> c.losses().keySet().stream()).distinct()
                .sorted(Comparator.comparingInt(LossKey::rank)).toList();
    }

    /**
     * The latency at the rate most of the runs ran at (the lowest of those tied): a cell's runs
     * at other rates are other experiments, not repetitions.
     */
    private static SafetyCell.LatencyAtRate latency(List<RunFolder> runs) {
        if (runs.isEmpty()) {
            return null;
        }
        Map<Double, List<RunFolder>> byRate = new TreeMap<>();
        for (RunFolder run : runs) {
            byRate.computeIfAbsent(run.result().workload().rateMsgsPerSec(), k -> new ArrayList<>()).add(run);
        }
        Map.Entry<Double, List<RunFolder>> chosen = null;
        for (Map.Entry<Double, List<RunFolder>> e : byRate.entrySet()) {
            if (chosen == null || e.getValue().size() > chosen.getValue().size()) {
                chosen = e;
            }
        }
        List<RunFolder> atRate = chosen.getValue();
        // several runs are added as histograms, never their percentiles averaged (as compare does)
        Map<String, Double> latency = atRate.size() == 1 ? atRate.get(0).result().latenciesMs().latency()
                : CompareSide.of("", atRate).latencyMs();
        return new SafetyCell.LatencyAtRate(chosen.getKey(), atRate.size(), latency);
    }
}
