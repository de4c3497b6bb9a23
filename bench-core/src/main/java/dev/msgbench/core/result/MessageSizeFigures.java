package dev.msgbench.core.result;

import org.HdrHistogram.Histogram;

/**
 * The sizes of a run's messages as result.json records them, header included, in bytes.
 *
 * @param distribution  as --size gave it: {@code 1KiB}, {@code uniform:100B-10KiB}, {@code weights:100B=80,1KiB=20}
 * @param meanBytes     of the measured messages sent
 * @param minBytes      the percentiles and extremes of the measured messages sent (exact for
 *                      sizes up to 2,048 B; above, the lower end of a bucket 0.1% wide)
 * @param sentBytes     every message sent, warm-up included
 * @param receivedBytes every message received once, warm-up included
 */
public record MessageSizeFigures(String distribution, double meanBytes, long minBytes, long p50Bytes, long p90Bytes,
                                 long p99Bytes, long maxBytes, long sentBytes, long receivedBytes) {

    /** From the histogram of measured sizes; null when all messages had one size ({@code fixedBytes}). */
    public static MessageSizeFigures of(String distribution, Histogram measured, int fixedBytes, long measuredCount,
                                        long sentBytes, long receivedBytes) {
        if (measured == null) {
            long size = measuredCount == 0 ? 0 : fixedBytes;
            return new MessageSizeFigures(distribution, size, size, size, size, size, size, sentBytes, receivedBytes);
        }
        if (measured.getTotalCount() == 0) {
            return new MessageSizeFigures(distribution, 0, 0, 0, 0, 0, 0, sentBytes, receivedBytes);
        }
        // the lower end of each value's bucket: a size a distribution names (8KiB) reads back as itself
        return new MessageSizeFigures(distribution, measured.getMean(), measured.getMinValue(),
                atPercentile(measured, 50), atPercentile(measured, 90), atPercentile(measured, 99),
                measured.lowestEquivalentValue(measured.getMaxValue()), sentBytes, receivedBytes);
    }

    private static long atPercentile(Histogram h, double percentile) {
        return h.lowestEquivalentValue(h.getValueAtPercentile(percentile));
    }
}
