package dev.msgbench.cli.jmh;

import java.util.Locale;

/**
 * One benchmark's result from a JMH JSON file: the primary score with its error (the half
 * width of JMH's 99.9% confidence interval; NaN when there were too few iterations to compute
 * one) and, when run with {@code -prof gc}, the bytes allocated per operation and the allocation
 * rate (NaN without the profiler).
 *
 * @param key        benchmark, mode and parameters: what must match between two files
 * @param higherIsBetter true for throughput modes, false for time per operation
 */
public record JmhScore(String key, String benchmark, String mode, String params, double score, double error, String unit,
                       double allocBytesPerOp, double allocMBPerSec, boolean higherIsBetter) {

    /** The interval [score - error, score + error]; a missing error counts as zero width. */
    double low() {
        return score - (Double.isNaN(error) ? 0 : error);
    }

    double high() {
        return score + (Double.isNaN(error) ? 0 : error);
    }

    public String formatted() {
        String e = Double.isNaN(error) ? "?" : number(error);
        return number(score) + " ± " + e + " " + unit;
    }

    public static String number(double v) {
        if (Double.isNaN(v)) {
            return "NaN";
        }
        double a = Math.abs(v);
        if (a >= 100) {
            return String.format(Locale.US, "%,.0f", v);
        }
        if (a >= 1) {
            return String.format(Locale.US, "%.2f", v);
        }
        return String.format(Locale.US, "%.4f", v);
    }
}
