package dev.msgbench.core.result;

import java.io.FileNotFoundException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

import dev.msgbench.core.record.HistogramKind;

/**
 * latency.hlog: one tagged interval histogram per kind and second, in HdrHistogram's interval
 * log format (readable by HistogramLogReader and the HdrHistogram plotters). Values are
 * nanoseconds. Warm-up intervals are included, so that a plot shows the whole run; a comment
 * and the header say where the warm-up ends.
 */
public final class IntervalLog implements AutoCloseable {

    public static final String FILE_NAME = "latency.hlog";

    private final PrintStream out;
    private final HistogramLogWriter writer;

    public IntervalLog(Path dir, long startEpochMillis, double warmupSeconds, double durationSeconds) {
        try {
            this.out = new PrintStream(dir.resolve(FILE_NAME).toFile(), StandardCharsets.US_ASCII);
        } catch (FileNotFoundException e) {
            throw new IllegalStateException("cannot write " + dir.resolve(FILE_NAME), e);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        this.writer = new HistogramLogWriter(out);
        writer.outputComment("msgbench interval log; values in nanoseconds; tags: latency, service, send-delay, ack, hiccup");
        writer.outputComment(String.format(Locale.US, "warm-up: %.3f s from StartTime, then measured: %.3f s",
                warmupSeconds, durationSeconds));
        writer.outputLogFormatVersion();
        writer.outputStartTime(startEpochMillis);
        writer.setBaseTime(startEpochMillis);
        writer.outputBaseTime(startEpochMillis);
        writer.outputLegend();
        out.flush();
    }

    /** Writes one interval of one kind; timestamps are epoch milliseconds. */
    public synchronized void write(HistogramKind kind, Histogram interval, long startEpochMillis, long endEpochMillis) {
        interval.setStartTimeStamp(startEpochMillis);
        interval.setEndTimeStamp(endEpochMillis);
        interval.setTag(kind.tag());
        writer.outputIntervalHistogram(interval);
    }

    /** A comment line (HistogramLogReader skips lines starting with #), on disk at once. */
    public synchronized void comment(String text) {
        writer.outputComment(text);
        out.flush();
    }

    public synchronized void flush() {
        out.flush();
    }

    @Override
    public synchronized void close() {
        out.close();
    }
}
