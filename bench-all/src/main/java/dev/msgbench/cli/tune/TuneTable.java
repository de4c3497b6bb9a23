package dev.msgbench.cli.tune;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import dev.msgbench.cli.TextColumns;

/** The tuning comparison as a fixed-width text table: one line per (JDK, flag set). */
public final class TuneTable {

    private static final String[] HEADER = {"jdk", "flags", "status", "p50 ms", "p99 ms", "p99.9 ms", "max ms", "rate/s",
            "gc n", "gc ms", "gc max", "alloc MiB/s", "hiccup p99", "hiccup max", "cpu busy"};

    private TuneTable() {
    }

    public static void print(List<TuneRow> rows, List<String> notes, PrintWriter out) {
        print(rows, null, notes, out);
    }

    /**
     * The table with a "run" column after the flag set when {@code runs} is given: each row's run
     * number, for a tune with repeats.
     */
    public static void print(List<TuneRow> rows, List<Integer> runs, List<String> notes, PrintWriter out) {
        int labels = runs == null ? 3 : 4;
        List<String[]> lines = new ArrayList<>();
        lines.add(runs == null ? HEADER : withRun(HEADER, "run"));
        for (int k = 0; k < rows.size(); k++) {
            TuneRow r = rows.get(k);
            String[] line = {r.jdk(), r.flagSet(), r.status(), ms(r.p50Ms()), ms(r.p99Ms()), ms(r.p999Ms()),
                    ms(r.maxMs()), rate(r.achievedRate()), r.gcPauses() < 0 ? "-" : Long.toString(r.gcPauses()),
                    fixed(r.gcPauseTotalMs(), 0), fixed(r.gcPauseMaxMs(), 0), fixed(r.allocMiBPerSec(), 1),
                    ms(r.hiccupP99Ms()), ms(r.hiccupMaxMs()), r.cpu()};
            lines.add(runs == null ? line : withRun(line, Integer.toString(runs.get(k))));
        }
        TextColumns.print(lines, labels, out);
        Set<String> named = new LinkedHashSet<>();
        for (TuneRow r : rows) {
            named.add(r.jdk() + " " + r.flagSet() + ": " + String.join(" ", r.flags()));
        }
        named.forEach(out::println);
        notes.forEach(out::println);
        out.flush();
    }

    /** The line with the run column after jdk and flags. */
    private static String[] withRun(String[] line, String run) {
        String[] with = new String[line.length + 1];
        with[0] = line[0];
        with[1] = line[1];
        with[2] = run;
        System.arraycopy(line, 2, with, 3, line.length - 2);
        return with;
    }

    /** The same table as a self-contained HTML page, for a browser or for pasting into a report. */
    public static String html(List<TuneRow> rows, List<String> notes, String workload) {
        return html(rows, notes, workload, "");
    }

    /** As {@link #html(List, List, String)}, with the sets' spread and verdicts (a tune with repeats) below, as text. */
    public static String html(List<TuneRow> rows, List<String> notes, String workload, String spread) {
        return html(rows, notes, workload, spread, "");
    }

    /**
     * As {@link #html(List, List, String, String)}, with the JMH table of tune --jmh below, as text;
     * without e2e rows (--jmh-only) that table alone.
     */
    public static String html(List<TuneRow> rows, List<String> notes, String workload, String spread, String jmh) {
        StringBuilder sb = new StringBuilder();
        sb.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>msgbench tune</title>\n")
                .append("<style>body{font-family:sans-serif}table{border-collapse:collapse}")
                .append("td,th{border:1px solid #ccc;padding:2px 8px}td.n{text-align:right;font-variant-numeric:tabular-nums}</style>")
                .append("</head><body>\n<h1>JVM flag sets under one workload</h1>\n");
        if (rows.isEmpty() && !jmh.isEmpty()) {
            sb.append("<h2>JMH per flag set</h2>\n<pre>").append(escape(jmh)).append("</pre>\n");
            return sb.append("</body></html>\n").toString();
        }
        sb.append("<p>e2e ").append(escape(workload)).append("</p>\n<table>\n<tr>");
        for (String h : HEADER) {
            sb.append("<th>").append(escape(h)).append("</th>");
        }
        sb.append("<th>JVM flags</th></tr>\n");
        for (TuneRow r : rows) {
            String[] cells = {ms(r.p50Ms()), ms(r.p99Ms()), ms(r.p999Ms()), ms(r.maxMs()), rate(r.achievedRate()),
                    r.gcPauses() < 0 ? "-" : Long.toString(r.gcPauses()), fixed(r.gcPauseTotalMs(), 0),
                    fixed(r.gcPauseMaxMs(), 0), fixed(r.allocMiBPerSec(), 1), ms(r.hiccupP99Ms()), ms(r.hiccupMaxMs()), r.cpu()};
            sb.append("<tr><td>").append(escape(r.jdk())).append("</td><td>").append(escape(r.flagSet()))
                    .append("</td><td>").append(escape(r.status())).append("</td>");
            for (String c : cells) {
                sb.append("<td class=\"n\">").append(c).append("</td>");
            }
            sb.append("<td><code>").append(escape(String.join(" ", r.flags()))).append("</code></td></tr>\n");
        }
        sb.append("</table>\n<p>Latency and hiccups in ms; gc: stop-the-world pauses of the load generator (count, total ms, longest ms); "
                + "cpu busy: the machine's CPUs over the measured window, with contention where the load generator and the "
                + "broker competed for them.</p>\n");
        for (String note : notes) {
            sb.append("<p>").append(escape(note)).append("</p>\n");
        }
        if (!spread.isEmpty()) {
            sb.append("<h2>Each set over its runs</h2>\n<pre>").append(escape(spread)).append("</pre>\n");
        }
        if (!jmh.isEmpty()) {
            sb.append("<h2>JMH per flag set</h2>\n<pre>").append(escape(jmh)).append("</pre>\n");
        }
        return sb.append("</body></html>\n").toString();
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static String ms(double v) {
        return fixed(v, 3);
    }

    private static String rate(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.US, "%,.0f", v);
    }

    private static String fixed(double v, int decimals) {
        return Double.isNaN(v) ? "-" : String.format(Locale.US, "%,." + decimals + "f", v);
    }
}
