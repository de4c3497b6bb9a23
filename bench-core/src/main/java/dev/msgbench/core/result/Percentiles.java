package dev.msgbench.core.result;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.HdrHistogram.Histogram;

/** The percentiles every result reports, read from a histogram of nanoseconds. */
public final class Percentiles {

    /** Labels as they appear in result.json and the summary, with their percentile. */
    public static final List<Map.Entry<String, Double>> REPORTED = List.of(
            Map.entry("p50", 50.0),
            Map.entry("p75", 75.0),
            Map.entry("p90", 90.0),
            Map.entry("p99", 99.0),
            Map.entry("p99.9", 99.9),
            Map.entry("p99.99", 99.99),
            Map.entry("p99.999", 99.999),
            Map.entry("p99.9999", 99.9999));

    private static final double NANOS_PER_MILLI = 1e6;

    private Percentiles() {
    }

    /**
     * Percentiles, max, min, mean and count in milliseconds; an empty map for an empty
     * histogram, so that no result shows a zero latency that was never measured.
     */
    public static Map<String, Double> inMillis(Histogram histogram) {
        Map<String, Double> values = new LinkedHashMap<>();
        if (histogram.getTotalCount() == 0) {
            return values;
        }
        for (Map.Entry<String, Double> p : REPORTED) {
            values.put(p.getKey(), histogram.getValueAtPercentile(p.getValue()) / NANOS_PER_MILLI);
        }
        values.put("max", histogram.getMaxValue() / NANOS_PER_MILLI);
        values.put("min", histogram.getMinValue() / NANOS_PER_MILLI);
        values.put("mean", histogram.getMean() / NANOS_PER_MILLI);
        values.put("count", (double) histogram.getTotalCount());
        return values;
    }
}
