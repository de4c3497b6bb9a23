package dev.msgbench.cli.repeats;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.msgbench.core.analysis.RunsVerdict;

/**
 * Sets of repeated runs figure by figure, as text rows and as JSON: each set's median run and the
 * spread of its runs, and each set's verdict per figure against a baseline set by
 * {@link RunsVerdict}'s rule. tune prints a set per column ({@link #turned}), a workload's summary a
 * cell per row.
 */
public final class SpreadTable {

    /** What a spread cell shows, for the line above the table. */
    public static final String EACH_FIGURE = "each figure: the median run [lowest..highest run] of the complete runs";

    private SpreadTable() {
    }

    /** A heading row, then a row per set: its name, its complete runs of all, each figure's spread. */
    public static <R> List<String[]> bySet(String first, List<RepeatedRuns<R>> sets, List<? extends RunFigure<R>> figures) {
        List<String[]> rows = new ArrayList<>();
        List<String> heading = new ArrayList<>(List.of(first, "runs complete"));
        figures.forEach(f -> heading.add(f.label()));
        rows.add(heading.toArray(String[]::new));
        for (RepeatedRuns<R> set : sets) {
            List<String> row = new ArrayList<>(List.of(set.name(), set.completeOfTotal()));
            figures.forEach(f -> row.add(set.spread(f)));
            rows.add(row.toArray(String[]::new));
        }
        return rows;
    }

    /** A heading row, then a row per other set: its verdict against {@code base} per figure. */
    public static <R> List<String[]> verdicts(String first, RepeatedRuns<R> base, List<RepeatedRuns<R>> others,
                                              List<? extends RunFigure<R>> figures) {
        List<String[]> rows = new ArrayList<>();
        List<String> heading = new ArrayList<>(List.of(first));
        figures.forEach(f -> heading.add(f.label()));
        rows.add(heading.toArray(String[]::new));
        for (RepeatedRuns<R> other : others) {
            List<String> row = new ArrayList<>(List.of(other.name()));
            figures.forEach(f -> row.add(other.against(base, f).text()));
            rows.add(row.toArray(String[]::new));
        }
        return rows;
    }

    /** Rows turned into columns: a figure per row, a set per column. */
    public static List<String[]> turned(List<String[]> rows) {
        List<String[]> turned = new ArrayList<>();
        for (int column = 0; column < rows.get(0).length; column++) {
            String[] line = new String[rows.size()];
            for (int row = 0; row < rows.size(); row++) {
                line[row] = rows.get(row)[column];
            }
            turned.add(line);
        }
        return turned;
    }

    /** Per figure, by its label: the median run, the lowest and highest, and every complete run's value. */
    public static <R> Map<String, Object> json(RepeatedRuns<R> set, List<? extends RunFigure<R>> figures) {
        Map<String, Object> json = new LinkedHashMap<>();
        for (RunFigure<R> figure : figures) {
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("median", finite(set.median(figure)));
            f.put("lowest", finite(set.lowest(figure)));
            f.put("highest", finite(set.highest(figure)));
            f.put("runs", set.values(figure));
            json.put(figure.label(), f);
        }
        return json;
    }

    /** Per figure, by its label: the verdict's text against {@code base}. */
    public static <R> Map<String, Object> verdictsJson(RepeatedRuns<R> set, RepeatedRuns<R> base,
                                                       List<? extends RunFigure<R>> figures) {
        Map<String, Object> json = new LinkedHashMap<>();
        figures.forEach(f -> json.put(f.label(), set.against(base, f).text()));
        return json;
    }

    /** JSON has no NaN: a figure no run measured is null. */
    public static Double finite(double v) {
        return Double.isNaN(v) ? null : v;
    }
}
