package dev.msgbench.cli.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.msgbench.core.UserError;
import dev.msgbench.core.result.Percentiles;

/**
 * A limit of {@code compare --max-regression}: how much worse NEW may be than BASE in one metric.
 * Latencies ({@code p99.9=10%}, {@code max=50%}) may be that much higher, rates
 * ({@code received-rate=5%}) that much lower; {@code lost=N} lets NEW lose at most N messages
 * more than BASE.
 */
public record Regression(String metric, double limit) {

    static final String SENT_RATE = "sent-rate";
    static final String RECEIVED_RATE = "received-rate";
    static final String LOST = "lost";

    static List<String> metrics() {
        List<String> names = new ArrayList<>();
        Percentiles.REPORTED.forEach(p -> names.add(p.getKey()));
        names.addAll(List.of("max", "mean", SENT_RATE, RECEIVED_RATE, LOST));
        return names;
    }

    /** Parses METRIC=LIMIT as given to --max-regression. */
    static Regression parse(String spec) {
        int eq = spec.indexOf('=');
        String metric = eq < 0 ? spec : spec.substring(0, eq).trim();
        if (eq < 0 || !metrics().contains(metric)) {
            throw new UserError("--max-regression must be METRIC=LIMIT with METRIC one of "
                    + String.join(", ", metrics()) + ", got '" + spec + "'");
        }
        String value = spec.substring(eq + 1).trim();
        try {
            if (metric.equals(LOST)) {
                long messages = Long.parseLong(value);
                if (messages >= 0) {
                    return new Regression(metric, messages);
                }
            } else if (value.endsWith("%")) {
                double percent = Double.parseDouble(value.substring(0, value.length() - 1));
                if (percent >= 0 && Double.isFinite(percent)) {
                    return new Regression(metric, percent);
                }
            }
        } catch (NumberFormatException e) {
            // falls through to the one-line error below, which says what is expected
        }
        throw new UserError("--max-regression " + metric + " must be " + (metric.equals(LOST)
                ? "a number of messages >= 0, e.g. lost=0" : "a percentage >= 0, e.g. " + metric + "=10%")
                + ", got '" + spec + "'");
    }

    /** One value of a side by metric name; NaN where the side has none. */
    static double value(CompareSide side, String metric) {
        return switch (metric) {
            case SENT_RATE -> side.sentRate();
            case RECEIVED_RATE -> side.receivedRate();
            case LOST -> side.lost();
            default -> side.latencyMs().getOrDefault(metric, Double.NaN);
        };
    }

    /** Why NEW is worse than BASE beyond this limit, or null when it is not. */
    String violation(CompareSide base, CompareSide next) {
        double b = value(base, metric);
        double n = value(next, metric);
        if (Double.isNaN(b) || Double.isNaN(n)) {
            return String.format(Locale.US, "%s cannot be compared: %s has no value", metric,
                    Double.isNaN(n) ? "NEW" : "BASE");
        }
        if (metric.equals(LOST)) {
            return n - b > limit ? String.format(Locale.US, "lost rose from %d to %d messages, more than the %d more"
                    + " allowed", (long) b, (long) n, (long) limit) : null;
        }
        boolean rate = metric.equals(SENT_RATE) || metric.equals(RECEIVED_RATE);
        double change = b == 0 ? (n == 0 ? 0 : Double.POSITIVE_INFINITY) : (n - b) / b * 100;
        double worse = rate ? -change : change;
        if (worse <= limit) {
            return null;
        }
        String format = rate ? CompareTable.RATE : CompareTable.MS;
        return String.format(Locale.US, "%s %s from %s to %s%s (%s%.1f%%), more than the %s%% allowed", metric,
                rate ? "fell" : "rose", CompareTable.number(b, format), CompareTable.number(n, format),
                rate ? " msg/s" : " ms", rate ? "-" : "+", Math.abs(change), new java.math.BigDecimal(Double.toString(limit))
                        .stripTrailingZeros().toPlainString());
    }

    static Map<String, Regression> byMetric(List<String> specs) {
        Map<String, Regression> limits = new LinkedHashMap<>();
        for (String spec : specs) {
            Regression r = parse(spec);
            limits.put(r.metric(), r);
        }
        return limits;
    }
}
