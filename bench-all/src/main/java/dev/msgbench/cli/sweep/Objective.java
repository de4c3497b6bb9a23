package dev.msgbench.cli.sweep;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.msgbench.core.result.Percentiles;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * A latency objective of a sweep, such as {@code p99.9<=10ms}: a percentile that result.json
 * reports (or the max) and the latency it may reach, from the intended send time.
 *
 * @param statistic a key of result.json's latencyMs: p50 ... p99.9999, or max
 */
public record Objective(String statistic, double limitMs, String text) {

    private static final Pattern SYNTAX = Pattern.compile("(p[0-9.]+|max)\\s*<=\\s*([0-9]+(?:\\.[0-9]+)?)\\s*(us|ms|s)");

    /** No latency objective: a step passes on its rate and its losses alone (OMB's rate search); p99 is shown. */
    static final Objective NONE = new Objective("p99", Double.POSITIVE_INFINITY, "none");

    static Objective parse(String text) {
        if (text.trim().equals(NONE.text())) {
            return NONE;
        }
        Matcher m = SYNTAX.matcher(text.trim());
        List<String> statistics = statistics();
        if (!m.matches() || !statistics.contains(m.group(1))) {
            throw new IllegalArgumentException("must be PERCENTILE<=LATENCY, e.g. p99.9<=10ms (percentiles: "
                    + String.join(", ", statistics) + "; units: us, ms, s), or none, got '" + text + "'");
        }
        double value = Double.parseDouble(m.group(2));
        double ms = switch (m.group(3)) {
            case "us" -> value / 1000;
            case "s" -> value * 1000;
            default -> value;
        };
        return new Objective(m.group(1), ms, m.group(1) + " <= " + m.group(2) + " " + m.group(3));
    }

    /** The statistic's value in a run's latencyMs, or null when nothing was measured. */
    Double valueIn(Map<String, Double> latencyMs) {
        return latencyMs.get(statistic);
    }

    boolean none() {
        return this == NONE;
    }

    boolean metBy(double valueMs) {
        return valueMs <= limitMs;
    }

    private static List<String> statistics() {
        List<String> names = new ArrayList<>();
        Percentiles.REPORTED.forEach(p -> names.add(p.getKey()));
        names.add("max");
        return names;
    }

    static final class Converter implements ITypeConverter<Objective> {
        @Override
        public Objective convert(String value) {
            try {
                return parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
