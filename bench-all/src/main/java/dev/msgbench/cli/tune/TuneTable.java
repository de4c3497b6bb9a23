package dev.msgbench.cli.tune;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The tuning comparison as a fixed-width text table: one line per (JDK, flag set). */
public final class TuneTable {

    private static final String[] HEADER = {"jdk", "flags", "status", "p50 ms", "p99 ms", "p99.9 ms", "max ms", "rate/s",
            "gc n", "gc ms", "gc max", "alloc MiB/s", "hiccup p99", "hiccup max"};

    private TuneTable() {
    }

    public static void print(List<TuneRow> rows, List<String> notes, PrintWriter out) {
        List<String[]> lines = new ArrayList<>();
        lines.add(HEADER);
        for (TuneRow r : rows) {
            lines.add(new String[] {r.jdk(), r.flagSet(), r.status(), ms(r.p50Ms()), ms(r.p99Ms()), ms(r.p999Ms()),
                    ms(r.maxMs()), rate(r.achievedRate()), r.gcPauses() < 0 ? "-" : Long.toString(r.gcPauses()),
                    fixed(r.gcPauseTotalMs(), 0), fixed(r.gcPauseMaxMs(), 0), fixed(r.allocMiBPerSec(), 1),
                    ms(r.hiccupP99Ms()), ms(r.hiccupMaxMs())});
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
