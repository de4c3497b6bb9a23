package dev.msgbench.cli.jmh;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Two JMH runs side by side. A difference counts only when the two error intervals do not
 * overlap: JMH's error is the half width of a 99.9% confidence interval, so overlapping
 * intervals mean the runs cannot be told apart, whatever the ratio says.
 */
public final class JmhComparison {

    public static final String WITHIN_NOISE = "within noise";
    public static final String BETTER = "better";
    public static final String WORSE = "worse";
    public static final String NO_ERROR_BARS = "no error bars";
    /** The rule of {@link #against}, as help, docs and tune's output state it. */
    public static final String RULE = "better or worse only when the two 99.9% confidence intervals (score ± JMH's "
            + "error) do not overlap, else within noise; JMH gives no error bars below 3 measured iterations in all "
            + "(forks x -i), and then there is no verdict";

    /** One row: either side may be missing when a benchmark was added or removed. */
    public record Row(JmhScore a, JmhScore b, double ratio, String verdict) {
    }

    private JmhComparison() {
    }

    public static List<Row> compare(Map<String, JmhScore> a, Map<String, JmhScore> b) {
        Set<String> keys = new LinkedHashSet<>(a.keySet());
        keys.addAll(b.keySet());
        List<Row> rows = new ArrayList<>();
        for (String key : keys) {
            JmhScore x = a.get(key);
            JmhScore y = b.get(key);
            if (x == null || y == null) {
                rows.add(new Row(x, y, Double.NaN, x == null ? "only in B" : "only in A"));
                continue;
            }
            rows.add(new Row(x, y, y.score() / x.score(), verdict(x, y)));
        }
        return rows;
    }

    static String verdict(JmhScore a, JmhScore b) {
        String verdict = against(a, b);
        return verdict.equals(BETTER) || verdict.equals(WORSE) ? "B " + verdict : verdict;
    }

    /**
     * {@code set} against {@code base}: better or worse only when their 99.9% intervals do not
     * overlap, whether a higher score is better decided by the mode (throughput or time per op).
     */
    public static String against(JmhScore base, JmhScore set) {
        if (Double.isNaN(base.error()) || Double.isNaN(set.error())) {
            return NO_ERROR_BARS;
        }
        if (base.high() >= set.low() && set.high() >= base.low()) {
            return WITHIN_NOISE;
        }
        boolean higher = set.score() > base.score();
        return higher == base.higherIsBetter() ? BETTER : WORSE;
    }

    public static void print(List<Row> rows, String nameA, String nameB, PrintWriter out) {
        out.println("A: " + nameA);
        out.println("B: " + nameB);
        out.println("errors: JMH's 99.9% confidence half-widths; \"" + WITHIN_NOISE + "\" when the intervals overlap");
        List<String[]> cells = new ArrayList<>();
        cells.add(new String[] {"benchmark", "params", "mode", "A", "B", "B/A", "verdict", "alloc B/op A -> B"});
        for (Row row : rows) {
            JmhScore any = row.a() != null ? row.a() : row.b();
            cells.add(new String[] {any.benchmark(), any.params().isEmpty() ? "-" : any.params(), any.mode(),
                    row.a() == null ? "-" : row.a().formatted(), row.b() == null ? "-" : row.b().formatted(),
                    Double.isNaN(row.ratio()) ? "-" : String.format(Locale.US, "%.3f", row.ratio()), row.verdict(),
                    alloc(row.a()) + " -> " + alloc(row.b())});
        }
        int[] widths = new int[cells.get(0).length];
        for (String[] line : cells) {
            for (int i = 0; i < line.length; i++) {
                widths[i] = Math.max(widths[i], line[i].length());
            }
        }
        for (String[] line : cells) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < line.length; i++) {
                boolean right = i >= 3 && i <= 5;
                String pad = " ".repeat(widths[i] - line[i].length());
                sb.append(i == 0 ? "" : "  ").append(right ? pad + line[i] : line[i] + (i == line.length - 1 ? "" : pad));
            }
            out.println(sb);
        }
        out.flush();
    }

    private static String alloc(JmhScore s) {
        return s == null || Double.isNaN(s.allocBytesPerOp()) ? "-" : JmhScore.number(s.allocBytesPerOp());
    }
}
