package dev.msgbench.cli.workload;

import java.io.FileNotFoundException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;

import dev.msgbench.core.record.HistogramKind;
import dev.msgbench.core.result.IntervalLog;
import dev.msgbench.core.record.Recorders;

/**
 * The latency histogram of a run's measured part, read back from its interval log, so that the
 * repetitions of a cell can be added. latency.hgrm cannot serve: its percentile text is lossy.
 *
 * <p>The log holds one histogram per second of the run, warm-up included; the intervals that
 * start at or after the end of the warm-up are the measured part. The engine's own measured
 * histogram (result.json) counts a message by its intended send time instead, so the two differ
 * only by the few warm-up messages still in flight when the warm-up ended, and not at all when
 * the warm-up is 0.
 */
public final class MeasuredLatency {

    /** Interval start times are rounded to the millisecond when written. */
    private static final long ROUNDING_MILLIS = 1;

    private MeasuredLatency() {
    }

    /** The run's measured latency, added into {@code sum}; false if the run left no interval log. */
    public static boolean addTo(Histogram sum, Path resultDir, double warmupSeconds) {
        Path file = resultDir.resolve(IntervalLog.FILE_NAME);
        if (!Files.isRegularFile(file)) {
            return false;
        }
        HistogramLogReader reader;
        try {
            reader = new HistogramLogReader(file.toFile());
        } catch (FileNotFoundException e) {
            return false;
        }
        try {
            long warmupMillis = Math.round(warmupSeconds * 1000);
            EncodableHistogram interval;
            while ((interval = reader.nextIntervalHistogram()) != null) {
                if (!HistogramKind.LATENCY.tag().equals(interval.getTag())) {
                    continue;
                }
                long measureStart = Math.round(reader.getStartTimeSec() * 1000) + warmupMillis;
                if (interval.getStartTimeStamp() + ROUNDING_MILLIS >= measureStart) {
                    sum.add((Histogram) interval);
                }
            }
        } finally {
            reader.close();
        }
        return true;
    }

    static Histogram empty() {
        return Recorders.newHistogram();
    }
}
