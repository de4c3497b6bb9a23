package dev.msgbench.cli.tune;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The tuning comparison as a fixed-width text table: one line per (JDK, flag set). */
public final class TuneTable {

    private static final String[] HEADER = {"jdk", "flags", "status", "p50 ms", "p99 ms", "p99.9 ms", "max ms", "rate/s",
            "gc n", "gc ms", "gc max", "alloc MiB/s", "hiccup p99", "hiccup max", "cpu busy"};

    private TuneTable() {
    }

    public static void print(List<TuneRow> rows, List<String> notes, PrintWriter out) {
        List<String[]> lines = new ArrayList<>();
        lines.add(HEADER);
        for (TuneRow r : rows) {
            lines.add(new String[] {r.jdk(), r.flagSet(), r.status(), ms(r.p50Ms()), ms(r.p99Ms()), ms(r.p999Ms()),
                    ms(r.maxMs()), rate(r.achievedRate()), r.gcPauses() < 0 ? "-" : Long.toString(r.gcPauses()),
                    fixed(r.gcPauseTotalMs(), 0), fixed(r.gcPauseMaxMs(), 0), fixed(r.allocMiBPerSec(), 1),
                    ms(r.hiccupP99Ms()), ms(r.hiccupMaxMs()), r.cpu()});
        }
        int[] widths = new int[HEADER.length];
        for (String[] line : lines) {
            for (int i = 0; i < line.length; i++) {
                widths[i] = Math.max(widths[i], line[i].length());
            }
        }
        for (String[] line : lines) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < line.length; i++) {
                String pad = " ".repeat(widths[i] - line[i].length());
                sb.append(i == 0 ? "" : "  ").append(i < 3 ? line[i] + (i == line.length - 1 ? "" : pad) : pad + line[i]);
            }
            out.println(sb.toString().stripTrailing());
        }
        for (TuneRow r : rows) {
            out.println(r.jdk() + " " + r.flagSet() + ": " + String.join(" ", r.flags()));
        }
        notes.forEach(out::println);
        out.flush();
    }

    /** The same table as a self-contained HTML page, for a browser or for pasting into a report. */
    public static String html(List<TuneRow> rows, List<String> notes, String workload) {
        StringBuilder sb = new StringBuilder();
        sb.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>msgbench tune</title>\n")
                .append("<style>body{font-family:sans-serif}table{border-collapse:collapse}")
                .append("td,th{border:1px solid #ccc;padding:2px 8px}td.n{text-align:right;font-variant-numeric:tabular-nums}</style>")
                .append("</head><body>\n<h1>JVM flag sets under one workload</h1>\n<p>e2e ").append(escape(workload))
                .append("</p>\n<table>\n<tr>");
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
