package dev.msgbench.cli.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.cli.repeats.RunFigure;
import dev.msgbench.core.analysis.RunsVerdict;

/**
 * One thing repeated, as its JSON gives it back (a tune's flag set in tune.json, a workload's cell
 * in summary.json, both written by {@link dev.msgbench.cli.repeats.SpreadTable}): its runs' values
 * per figure label, and its verdicts against its baseline (empty without one).
 */
record RepeatedSet(String name, Map<String, List<Double>> runs, Map<String, String> verdicts, String baseline) {

    /** The set of {@code json}'s "figures", "verdicts" and "baseline", for the given figures. */
    static RepeatedSet read(String name, JsonNode json, List<? extends RunFigure<?>> figures) {
        Map<String, List<Double>> runs = new LinkedHashMap<>();
        for (RunFigure<?> figure : figures) {
            List<Double> values = new ArrayList<>();
            json.path("figures").path(figure.label()).path("runs").forEach(v -> values.add(v.asDouble()));
            runs.put(figure.label(), values);
        }
        Map<String, String> verdicts = new LinkedHashMap<>();
        json.path("verdicts").fields().forEachRemaining(e -> verdicts.put(e.getKey(), e.getValue().asText()));
        return new RepeatedSet(name, runs, verdicts, json.path("baseline").asText(null));
    }

    double median(String figure) {
        return RunsVerdict.median(runs.getOrDefault(figure, List.of()).stream().mapToDouble(Double::doubleValue).toArray());
    }

    /**
     * A table per figure and set: the median run [lowest..highest] and under it the verdict.
     *
     * @param rule the verdict rule, or null when nothing was judged
     * @param baselines what the sets were judged against, for the note
     */
    static String html(String first, List<RepeatedSet> sets, List<? extends RunFigure<?>> figures, String rule,
                       String baselines) {
        StringBuilder b = new StringBuilder();
        b.append("<table>\n<tr><th>").append(HtmlPage.esc(first)).append("</th>");
        sets.forEach(s -> b.append("<th>").append(HtmlPage.esc(s.name())).append("</th>"));
        b.append("</tr>\n");
        for (RunFigure<?> figure : figures) {
            b.append("<tr><td>").append(HtmlPage.esc(figure.label())).append("</td>");
            for (RepeatedSet set : sets) {
                List<Double> values = set.runs().getOrDefault(figure.label(), List.of());
                String cell = values.isEmpty() ? "-" : figure.format(set.median(figure.label())) + (values.size() < 2 ? ""
                        : " [" + figure.format(values.stream().mapToDouble(Double::doubleValue).min().orElseThrow()) + ".."
                        + figure.format(values.stream().mapToDouble(Double::doubleValue).max().orElseThrow()) + "]");
                String verdict = set.verdicts().get(figure.label());
                b.append("<td class=\"n\">").append(HtmlPage.esc(cell))
                        .append(verdict == null ? "" : "<br>" + HtmlPage.esc(verdict)).append("</td>");
            }
            b.append("</tr>\n");
        }
        b.append("</table>\n<p class=\"note\">Each cell: the median run [lowest..highest run] of the complete runs");
        if (rule != null) {
            b.append("; under it the verdict against the baseline (").append(HtmlPage.esc(baselines)).append(") by ")
                    .append(HtmlPage.esc(rule));
        }
        return b.append(".</p>\n").toString();
    }
}
