package dev.msgbench.cli.tune;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.msgbench.cli.TextColumns;
import dev.msgbench.cli.repeats.RepeatedRuns;
import dev.msgbench.cli.repeats.SpreadTable;
import dev.msgbench.core.analysis.RunsVerdict;

/**
 * The sets of a tune with repeats, figure by figure: each set's median run and the spread of its
 * runs (lowest..highest), the latency of all its runs added, and, with a baseline, a verdict per
 * figure against it by {@link RunsVerdict}'s rule.
 */
public final class TuneSpreadTable {

    /** The latencies of the added histograms, as result.json keys them. */
    static final Map<String, String> ADDED = Map.of("p50", "p50 ms", "p99", "p99 ms", "p99.9", "p99.9 ms", "max", "max ms");
    private static final List<String> ADDED_ORDER = List.of("p50", "p99", "p99.9", "max");
    private static final List<TuneFigure> FIGURES = List.of(TuneFigure.values());

    private TuneSpreadTable() {
    }

    /**
     * @param bases each set's baseline set by id (see {@link TuneBaseline#of}); empty without --baseline
     */
    public static void print(List<TuneSet> sets, Map<String, String> bases, int repeats, PrintWriter out) {
        out.println(repeats == 1 ? "1 run per set" : repeats + " runs per set, interleaved; " + SpreadTable.EACH_FIGURE);
        List<String[]> lines = SpreadTable.turned(SpreadTable.bySet("figure", repeated(sets), FIGURES));
        for (String key : ADDED_ORDER) {
            lines.add(row(ADDED.get(key) + ", runs added", sets.stream()
                    .map(s -> TuneFigure.P50.format(s.addedLatencyMs().getOrDefault(key, Double.NaN))).toList()));
        }
        TextColumns.print(lines, Integer.MAX_VALUE, out);
        Map<String, List<TuneSet>> byBase = new LinkedHashMap<>();
        Map<String, TuneSet> byId = new LinkedHashMap<>();
        sets.forEach(s -> byId.put(s.id(), s));
        for (TuneSet set : sets) {
            String base = bases.get(set.id());
            if (base != null && byId.containsKey(base)) {
                byBase.computeIfAbsent(base, b -> new ArrayList<>()).add(set);
            }
        }
        if (!byBase.isEmpty()) {
            out.println("verdicts by " + RunsVerdict.rule());
        }
        for (Map.Entry<String, List<TuneSet>> e : byBase.entrySet()) {
            TuneSet base = byId.get(e.getKey());
            TextColumns.print(SpreadTable.turned(SpreadTable.verdicts("against " + base.name(), base.repeated(),
                    repeated(e.getValue()), FIGURES)), Integer.MAX_VALUE, out);
        }
        out.flush();
    }

    private static List<RepeatedRuns<TuneRow>> repeated(List<TuneSet> sets) {
        return sets.stream().map(TuneSet::repeated).toList();
    }

    private static String[] row(String first, List<String> rest) {
        String[] row = new String[rest.size() + 1];
        row[0] = first;
        for (int i = 0; i < rest.size(); i++) {
            row[i + 1] = rest.get(i);
        }
        return row;
    }
}
