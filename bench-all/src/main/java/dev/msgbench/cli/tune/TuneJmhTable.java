package dev.msgbench.cli.tune;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import dev.msgbench.cli.TextColumns;
import dev.msgbench.cli.jmh.JmhComparison;
import dev.msgbench.cli.repeats.SpreadTable;
import dev.msgbench.cli.jmh.JmhScore;

/**
 * The JMH scores of a tune: one line per benchmark and parameters, one column per (JDK, flag
 * set), each cell the score with its error bar and the bytes allocated per operation, and,
 * where the set has a baseline, the verdict against it by {@link JmhComparison#against}.
 */
final class TuneJmhTable {

    private TuneJmhTable() {
    }

    /** Every benchmark any set measured, in the order the sets' results list them. */
    private static Set<String> keys(List<TuneJmhRun> runs) {
        Set<String> keys = new LinkedHashSet<>();
        runs.forEach(r -> keys.addAll(r.scores().keySet()));
        return keys;
    }

    static void print(List<TuneJmhRun> runs, Map<String, String> bases, String describe, PrintWriter out) {
        Map<String, TuneJmhRun> byId = byId(runs);
        out.println("JMH in each set's own forks (" + describe + "): score ± error (the half width "
                + "of its 99.9% confidence interval) (bytes allocated per op)");
        List<String[]> lines = new ArrayList<>();
        List<String> header = new ArrayList<>(List.of("benchmark", "params", "unit"));
        runs.forEach(r -> header.add(r.name()));
        lines.add(header.toArray(String[]::new));
        for (String key : keys(runs)) {
            JmhScore any = runs.stream().map(r -> r.scores().get(key)).filter(s -> s != null).findFirst().orElseThrow();
            List<String> line = new ArrayList<>(List.of(any.benchmark(), any.params().isEmpty() ? "-" : any.params(),
                    any.unit()));
            for (TuneJmhRun run : runs) {
                line.add(cell(run.scores().get(key), baseScore(byId, bases, run, key)));
            }
            lines.add(line.toArray(String[]::new));
        }
        TextColumns.print(lines, 3, out);
        for (TuneJmhRun run : runs) {
            if (run.error() != null) {
                out.println(run.name() + ": " + run.status());
            }
        }
        if (runs.stream().anyMatch(r -> bases.containsKey(r.id()))) {
            out.println("verdicts against " + String.join(", ", new LinkedHashSet<>(bases.values()).stream()
                    .map(id -> byId.containsKey(id) ? byId.get(id).name() : id).toList()) + ": " + JmhComparison.RULE);
        }
        out.flush();
    }

    /** The baseline's score of the same benchmark, or null where the set has no baseline or it lacks the benchmark. */
    private static JmhScore baseScore(Map<String, TuneJmhRun> byId, Map<String, String> bases, TuneJmhRun run, String key) {
        TuneJmhRun base = byId.get(bases.get(run.id()));
        return base == null ? null : base.scores().get(key);
    }

    static String cell(JmhScore score, JmhScore base) {
        if (score == null) {
            return "-";
        }
        String text = JmhScore.number(score.score()) + " ± " + (Double.isNaN(score.error()) ? "?" : JmhScore.number(score.error()));
        if (!Double.isNaN(score.allocBytesPerOp())) {
            text += " (" + JmhScore.number(score.allocBytesPerOp()) + " B/op)";
        }
        return base == null ? text : text + " " + verdict(base, score);
    }

    /** "worse x1.12", "within noise": the ratio only where the intervals say the sets differ. */
    static String verdict(JmhScore base, JmhScore score) {
        String verdict = JmhComparison.against(base, score);
        return verdict.equals(JmhComparison.BETTER) || verdict.equals(JmhComparison.WORSE)
                ? verdict + String.format(Locale.US, " x%.2f", score.score() / base.score()) : verdict;
    }

    /** tune.json's "jmh": what ran, and per set each benchmark's score, error, unit, allocation and verdict. */
    static Map<String, Object> json(List<TuneJmhRun> runs, Map<String, String> bases, TuneJmhOptions options) {
        Map<String, TuneJmhRun> byId = byId(runs);
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("module", options.module());
        json.put("include", options.include());
        json.put("args", options.args());
        json.put("rule", JmhComparison.RULE);
        List<Map<String, Object>> sets = new ArrayList<>();
        for (TuneJmhRun run : runs) {
            Map<String, Object> set = new LinkedHashMap<>();
            set.put("id", run.id());
            set.put("jdk", run.jdk());
            set.put("flagSet", run.flagSet());
            set.put("flags", run.flags());
            set.put("status", run.status());
            set.put("log", run.log());
            TuneJmhRun base = byId.get(bases.get(run.id()));
            if (base != null) {
                set.put("baseline", base.id());
            }
            List<Map<String, Object>> scores = new ArrayList<>();
            for (JmhScore score : run.scores().values()) {
                Map<String, Object> s = new LinkedHashMap<>();
                s.put("benchmark", score.benchmark());
                s.put("mode", score.mode());
                s.put("params", score.params());
                s.put("score", SpreadTable.finite(score.score()));
                s.put("scoreError", SpreadTable.finite(score.error()));
                s.put("unit", score.unit());
                s.put("allocBytesPerOp", SpreadTable.finite(score.allocBytesPerOp()));
                s.put("allocMBPerSec", SpreadTable.finite(score.allocMBPerSec()));
                JmhScore baseScore = base == null ? null : base.scores().get(score.key());
                if (baseScore != null) {
                    s.put("verdict", verdict(baseScore, score));
                }
                scores.add(s);
            }
            set.put("scores", scores);
            sets.add(set);
        }
        json.put("sets", sets);
        return json;
    }

    private static Map<String, TuneJmhRun> byId(List<TuneJmhRun> runs) {
        Map<String, TuneJmhRun> byId = new LinkedHashMap<>();
        runs.forEach(r -> byId.put(r.id(), r));
        return byId;
    }
}
