package dev.msgbench.cli.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.cli.jmh.JmhScore;

/**
 * The JMH scores of a {@code tune --jmh} folder (tune.json's "jmh"): one row per benchmark and
 * parameters, one column per (JDK, flag set), each cell the score with its error bar, the bytes
 * per op and the verdict against the baseline where there is one.
 *
 * @param sets     the columns' names, in the order tune ran them
 * @param cells    per row label ("Class.method params, unit"), each set's cell, "-" where it has none
 * @param failures the sets JMH gave no result for, with why
 */
record TuneJmhSection(String describe, List<String> sets, Map<String, List<String>> cells, List<String> failures,
                      String rule) {

    /** Null when the tune ran no JMH. */
    static TuneJmhSection read(JsonNode jmh) {
        if (!jmh.path("sets").isArray()) {
            return null;
        }
        List<String> sets = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        Map<String, Map<String, String>> byRow = new LinkedHashMap<>();
        for (JsonNode set : jmh.path("sets")) {
            String name = set.path("jdk").asText() + " " + set.path("flagSet").asText();
            sets.add(name);
            if (!"complete".equals(set.path("status").asText())) {
                failures.add(name + ": " + set.path("status").asText());
            }
            for (JsonNode score : set.path("scores")) {
                String row = score.path("benchmark").asText() + " " + score.path("params").asText() + ", "
                        + score.path("unit").asText();
                byRow.computeIfAbsent(row, k -> new LinkedHashMap<>()).put(name, cell(score));
            }
        }
        Map<String, List<String>> cells = new LinkedHashMap<>();
        byRow.forEach((row, bySet) -> cells.put(row, sets.stream().map(s -> bySet.getOrDefault(s, "-")).toList()));
        List<String> args = new ArrayList<>();
        jmh.path("args").forEach(a -> args.add(a.asText()));
        return new TuneJmhSection(jmh.path("module").asText() + " " + jmh.path("include").asText() + " "
                + String.join(" ", args), List.copyOf(sets), cells, List.copyOf(failures), jmh.path("rule").asText());
    }

    private static String cell(JsonNode score) {
        String error = score.path("scoreError").isNumber() ? JmhScore.number(score.path("scoreError").asDouble()) : "?";
        String text = JmhScore.number(score.path("score").asDouble()) + " ± " + error;
        if (score.path("allocBytesPerOp").isNumber()) {
            text += " (" + JmhScore.number(score.path("allocBytesPerOp").asDouble()) + " B/op)";
        }
        return score.path("verdict").isTextual() ? text + "\n" + score.path("verdict").asText() : text;
    }

    String html() {
        StringBuilder b = new StringBuilder();
        b.append("<p>JMH in each set's own forks: ").append(HtmlPage.esc(describe)).append("</p>\n<table>\n<tr><th>benchmark</th>");
        sets.forEach(s -> b.append("<th>").append(HtmlPage.esc(s)).append("</th>"));
        b.append("</tr>\n");
        cells.forEach((row, values) -> {
            b.append("<tr><td>").append(HtmlPage.esc(row)).append("</td>");
            values.forEach(v -> b.append("<td class=\"n\">").append(HtmlPage.esc(v).replace("\n", "<br>")).append("</td>"));
            b.append("</tr>\n");
        });
        b.append("</table>\n");
        failures.forEach(f -> b.append("<p class=\"note\">").append(HtmlPage.esc(f)).append("</p>\n"));
        return b.append("<p class=\"note\">Each cell: the score ± JMH's error (the half width of its 99.9% confidence "
                + "interval) and the bytes allocated per operation; under it, where the set has a baseline, the verdict: ")
                .append(HtmlPage.esc(rule)).append(".</p>\n").toString();
    }
}
