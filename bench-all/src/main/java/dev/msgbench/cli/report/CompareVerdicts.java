package dev.msgbench.cli.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.msgbench.core.analysis.RunsVerdict;
import dev.msgbench.core.result.Percentiles;

/**
 * {@code compare}'s verdicts when either side holds repeats: each figure judged over the runs'
 * own values (not the added histograms, which are one sample), by {@link RunsVerdict}'s rule.
 */
final class CompareVerdicts {

    private static final String ROW = "%-16s %s%n";

    private CompareVerdicts() {
    }

    /** The verdict lines, or none when both sides are one run each (one run a side is no sample). */
    static List<String> lines(CompareSide base, CompareSide next) {
        List<String> lines = new ArrayList<>();
        if (base.runs() < 2 && next.runs() < 2) {
            return lines;
        }
        lines.add("NEW against BASE over the runs (" + base.runs() + " vs " + next.runs() + "), by " + RunsVerdict.rule() + ":");
        List<String> metrics = new ArrayList<>();
        Percentiles.REPORTED.forEach(p -> metrics.add(p.getKey()));
        metrics.addAll(List.of("max", "mean", Regression.SENT_RATE, Regression.RECEIVED_RATE));
        for (String metric : metrics) {
            boolean rate = metric.equals(Regression.SENT_RATE) || metric.equals(Regression.RECEIVED_RATE);
            RunsVerdict.Verdict v = RunsVerdict.judge(values(base, metric), values(next, metric), rate);
            lines.add(String.format(Locale.US, ROW, rate ? metric.replace('-', ' ') + "/s" : metric + " ms", v.text())
                    .stripTrailing());
        }
        return lines;
    }

    private static double[] values(CompareSide side, String metric) {
        return side.perRun().stream().map(m -> m.getOrDefault(metric, Double.NaN)).mapToDouble(Double::doubleValue)
                .toArray();
    }
}
