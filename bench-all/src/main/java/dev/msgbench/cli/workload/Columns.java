package dev.msgbench.cli.workload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.HdrHistogram.Histogram;

import dev.msgbench.core.result.Percentiles;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.Throughput;

/**
 * The columns a summary table may show, read from each cell's result.json. Latency is the
 * response time from the intended send time, in ms; rates in msg/s and MiB/s of whole messages.
 */
public final class Columns {

    /** Latency in ms: the percentiles every result reports, then max, min and mean. */
    static final List<String> LATENCY;
    static final List<String> RATES = List.of("target-rate", "achieved-rate", "received-rate", "publisher-msg/s",
            "publisher-MiB/s", "consumer-msg/s", "consumer-MiB/s");
    static final List<String> COUNTS = List.of("sent", "received", "lost", "acknowledged-lost", "duplicated", "reordered");
    public static final List<String> IDS;

    static {
        List<String> latency = new ArrayList<>();
        Percentiles.REPORTED.forEach(p -> latency.add(p.getKey()));
        latency.addAll(List.of("max", "min", "mean"));
        LATENCY = List.copyOf(latency);
        List<String> ids = new ArrayList<>(LATENCY);
        ids.addAll(RATES);
        ids.addAll(COUNTS);
        IDS = List.copyOf(ids);
    }

    private Columns() {
    }

    /** What a file without a table shows: the published tables' percentiles at the stated load, or both rates. */
    static List<String> defaults(String command) {
        if (command.equals("throughput")) {
            return List.of("publisher-msg/s", "publisher-MiB/s", "consumer-msg/s", "consumer-MiB/s", "sent", "lost");
        }
        return List.of("target-rate", "achieved-rate", "p50", "p99", "p99.9", "p99.99", "p99.999", "p99.9999", "max", "lost");
    }

    static String title(String id) {
        if (LATENCY.contains(id)) {
            return id + " ms";
        }
        switch (id) {
            case "target-rate":
                return "target msg/s";
            case "achieved-rate":
                return "achieved msg/s";
            case "received-rate":
                return "received msg/s";
            default:
                return id.replace('-', ' ');
        }
    }

    /** Every column's value for one run; a column that does not apply (a rate of the other command) is absent. */
    static Map<String, Double> of(RunResult r) {
        Map<String, Double> values = new LinkedHashMap<>();
        r.latenciesMs().latency().forEach((k, v) -> {
            if (LATENCY.contains(k)) {
                values.put(k, v);
            }
        });
        if (r.rates().targetMsgsPerSec() > 0) {
            values.put("target-rate", r.rates().targetMsgsPerSec());
        }
        values.put("achieved-rate", r.rates().achievedMsgsPerSec());
        values.put("received-rate", r.rates().receivedMsgsPerSec());
        Throughput t = r.throughput();
        if (t != null) {
            values.put("publisher-msg/s", t.publisherMsgsPerSec());
            values.put("publisher-MiB/s", t.publisherMiBPerSec());
            if (r.workload().consumers() > 0) {
                values.put("consumer-msg/s", t.consumerMsgsPerSec());
                values.put("consumer-MiB/s", t.consumerMiBPerSec());
            }
        }
        values.put("sent", (double) r.counts().sent());
        if (r.workload().consumers() > 0) {
            // a producer-only run receives nothing by design: nothing is lost
            values.put("received", (double) r.counts().received());
            values.put("lost", (double) r.counts().lost());
            values.put("acknowledged-lost", (double) r.counts().acknowledgedLost());
            values.put("duplicated", (double) r.counts().duplicated());
            values.put("reordered", (double) r.counts().reordered());
        }
        return values;
    }

    /**
     * The values of several repetitions together. Latency from the sum of their measured
     * histograms (never an average of percentiles); counts added; each rate the lowest of the
     * repetitions, the rate that every one of them reached.
     */
    static Map<String, Double> combined(List<Map<String, Double>> repetitions, Histogram latency) {
        Map<String, Double> values = new LinkedHashMap<>();
        Percentiles.inMillis(latency).forEach((k, v) -> {
            if (LATENCY.contains(k)) {
                values.put(k, v);
            }
        });
        for (String rate : RATES) {
            repetitions.stream().filter(r -> r.containsKey(rate)).mapToDouble(r -> r.get(rate)).min()
                    .ifPresent(v -> values.put(rate, v));
        }
        for (String count : COUNTS) {
            if (repetitions.stream().allMatch(r -> r.containsKey(count))) {
                values.put(count, repetitions.stream().mapToDouble(r -> r.get(count)).sum());
            }
        }
        return values;
    }

    static String format(String id, Double value) {
        if (value == null) {
            return "-";
        }
        if (LATENCY.contains(id)) {
            return String.format(Locale.US, "%,.3f", value);
        }
        if (id.endsWith("MiB/s")) {
            return String.format(Locale.US, "%,.2f", value);
        }
        if (COUNTS.contains(id)) {
            return String.format(Locale.US, "%,d", value.longValue());
        }
        return value >= 100 || value == Math.rint(value) ? String.format(Locale.US, "%,.0f", value)
                : String.format(Locale.US, "%,.1f", value);
    }
}
