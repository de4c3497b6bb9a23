package dev.msgbench.cli.report;

import java.util.Locale;
import java.util.Map;

import dev.msgbench.core.result.Percentiles;

/** The side-by-side text of {@code compare}: BASE, NEW and NEW/BASE for each metric. */
public final class CompareTable {

    /* The name column fits the longest name, "acknowledged lost", so every number lines up. */
    private static final String ROW = "%-17s %14s %14s %9s%n";
    /** Latencies to the microsecond: the resolution of the .hgrm files. */
    static final String MS = "%,.3f";
    static final String RATE = "%,.1f";
    static final String COUNT = "%,.0f";

    private CompareTable() {
    }

    static String render(CompareSide base, CompareSide next) {
        StringBuilder b = new StringBuilder();
        b.append("BASE: ").append(base.description()).append('\n');
        b.append("NEW:  ").append(next.description()).append('\n');
        b.append(String.format(Locale.US, ROW, "", "BASE", "NEW", "NEW/BASE"));
        row(b, "target rate/s", RATE, base.targetRate(), next.targetRate());
        row(b, "sent rate/s", RATE, base.sentRate(), next.sentRate());
        row(b, "received rate/s", RATE, base.receivedRate(), next.receivedRate());
        for (Map.Entry<String, Double> p : Percentiles.REPORTED) {
            row(b, p.getKey() + " ms", MS, ms(base, p.getKey()), ms(next, p.getKey()));
        }
        row(b, "max ms", MS, ms(base, "max"), ms(next, "max"));
        row(b, "mean ms", MS, ms(base, "mean"), ms(next, "mean"));
        row(b, "sent", COUNT, base.sent(), next.sent());
        row(b, "lost", COUNT, base.lost(), next.lost());
        row(b, "acknowledged lost", COUNT, base.acknowledgedLost(), next.acknowledgedLost());
        return b.toString();
    }

    private static double ms(CompareSide side, String key) {
        return side.latencyMs().getOrDefault(key, Double.NaN);
    }

    private static void row(StringBuilder b, String name, String format, double base, double next) {
        b.append(String.format(Locale.US, ROW, name, number(base, format), number(next, format), ratio(base, next)));
    }

    static String ratio(double base, double next) {
        if (Double.isNaN(base) || Double.isNaN(next)) {
            return "-";
        }
        if (base == 0) {
            return next == 0 ? "1.00" : "inf";
        }
        return String.format(Locale.US, "%.2f", next / base);
    }

    static String number(double value, String format) {
        return Double.isNaN(value) ? "-" : String.format(Locale.US, format, value);
    }
}
