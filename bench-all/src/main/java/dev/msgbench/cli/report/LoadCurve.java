package dev.msgbench.cli.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.RunStatus;

/**
 * One line of latency against offered load: one system's runs of one sweep, by the rate each was
 * asked for, with the knee the sweep found. Warm-up runs are left out (the sweep does not judge
 * them), and so are runs that did not complete; a run that missed its objective or its rate stays:
 * what happens past the knee is what the chart is for.
 *
 * @param points by rate, lowest first
 * @param knee   null when no rate passed
 */
record LoadCurve(DurabilityCell cell, SweepFolder sweep, List<Point> points, Double knee, boolean kneeConfirmed) {

    /** The percentiles drawn, as result.json keys them; p99.9 only where a run has it. */
    static final List<String> PERCENTILES = List.of("p50", "p99", "p99.9");

    /**
     * The runs at one rate.
     *
     * @param runs each run's latencies, ms, as result.json's {@code latencyMs.latency} keys them
     */
    record Point(double rateMsgsPerSec, List<Map<String, Double>> runs) {

        /** The median over the runs; NaN when none has it. */
        double median(String percentile) {
            List<Double> values = values(percentile);
            int n = values.size();
            if (n == 0) {
                return Double.NaN;
            }
            return n % 2 == 1 ? values.get(n / 2) : (values.get(n / 2 - 1) + values.get(n / 2)) / 2;
        }

        /** Each run's value, sorted; a run without it (too few messages for p99.9) is left out. */
        List<Double> values(String percentile) {
            return runs.stream().map(r -> r.get(percentile)).filter(v -> v != null && !v.isNaN()).sorted().toList();
        }
    }

    /** The lines of a sweep: one per system it swept whose runs left results. */
    static List<LoadCurve> of(SweepFolder sweep) {
        List<LoadCurve> curves = new ArrayList<>();
        for (String system : sweep.systems()) {
            Map<Double, List<Map<String, Double>>> byRate = new TreeMap<>();
            DurabilityCell cell = null;
            for (SweepFolder.Step step : sweep.steps()) {
                RunResult r = step.result();
                if (!step.system().equals(system) || !step.judged() || r == null || r.status() != RunStatus.COMPLETE
                        || r.latenciesMs() == null || r.latenciesMs().latency() == null) {
                    continue;
                }
                cell = cell == null ? DurabilityCell.of(r) : cell;
                byRate.computeIfAbsent(step.targetRate(), k -> new ArrayList<>()).add(r.latenciesMs().latency());
            }
            if (cell == null) {
                continue;
            }
            List<Point> points = new ArrayList<>();
            byRate.forEach((rate, runs) -> points.add(new Point(rate, List.copyOf(runs))));
            SweepFolder.Knee knee = sweep.knees().get(system);
            curves.add(new LoadCurve(cell, sweep, List.copyOf(points), knee == null ? null : knee.rate(),
                    knee != null && knee.confirmed()));
        }
        return curves;
    }
}
