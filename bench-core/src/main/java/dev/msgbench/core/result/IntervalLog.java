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
 * and the header say where the warm-up ends. Beside it, the counts of the same intervals in
 * intervals.csv ({@link IntervalCounts}).
 */
public final class IntervalLog implements AutoCloseable {

    public static final String FILE_NAME = "latency.hlog";
    /** The counts of each interval, beside the log. */
    public static final String COUNTS_FILE_NAME = IntervalCounts.FILE_NAME;

    private final PrintStream out;
    private final HistogramLogWriter writer;
    private final IntervalCounts counts;
    private final long startEpochMillis;

    /**
     * How the comment that ends an automatic warm-up begins; the measured part starts this many
     * seconds from StartTime, and readers take it over the header's warm-up.
     */
    public static final String MEASURED_FROM = "measured from: ";

    public IntervalLog(Path dir, long startEpochMillis, double warmupSeconds, double durationSeconds) {
        this(dir, startEpochMillis, String.format(Locale.US, "warm-up: %.3f s from StartTime, then measured: %.3f s",
                warmupSeconds, durationSeconds));
    }

    /**
     * A log whose warm-up ends when the system settles ({@code --warmup auto}): its end is not
     * known yet, and {@link #measuredFrom} writes it once it is.
     */
    public static IntervalLog withAutoWarmup(Path dir, long startEpochMillis, double maxWarmupSeconds,
                                             double durationSeconds) {
        return new IntervalLog(dir, startEpochMillis, String.format(Locale.US,
                "warm-up: auto, until settled, at most %.3f s from StartTime, then measured: %.3f s",
                maxWarmupSeconds, durationSeconds));
    }

    private IntervalLog(Path dir, long startEpochMillis, String warmupComment) {
        try {
            this.out = new PrintStream(dir.resolve(FILE_NAME).toFile(), StandardCharsets.US_ASCII);
        } catch (FileNotFoundException e) {
            throw new IllegalStateException("cannot write " + dir.resolve(FILE_NAME), e);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        this.counts = new IntervalCounts(dir);
        this.startEpochMillis = startEpochMillis;
        this.writer = new HistogramLogWriter(out);
        writer.outputComment("msgbench interval log; values in nanoseconds; tags: latency, service, send-delay, ack, hiccup");
        writer.outputComment(warmupComment);
        writer.outputLogFormatVersion();
        writer.outputStartTime(startEpochMillis);
        writer.setBaseTime(startEpochMillis);
        writer.outputBaseTime(startEpochMillis);
        writer.outputLegend();
        out.flush();
    }

    /** Writes one interval of one kind; timestamps are epoch milliseconds. */
    public synchronized void write(HistogramKind kind, Histogram interval, long startEpochMillis, long endEpochMillis) {
        write(kind.tag(), interval, startEpochMillis, endEpochMillis);
    }

    /**
     * Writes one interval under a tag of the caller's: a merged log keeps each worker's own
     * intervals as "w0/latency", which the readers of the kinds' tags pass over.
     */
    public synchronized void write(String tag, Histogram interval, long startEpochMillis, long endEpochMillis) {
        interval.setStartTimeStamp(startEpochMillis);
        interval.setEndTimeStamp(endEpochMillis);
        interval.setTag(tag);
        writer.outputIntervalHistogram(interval);
    }

    /**
     * Writes the counts of one interval to intervals.csv; timestamps are epoch milliseconds.
     *
     * @param sent         in the interval, as acknowledged and received
     * @param unreceived   at its end: sent and not received (yet), in flight or lost
     * @param gaps         at its end: of those, the ones below the highest sequence received
     * @param latencyNanos the latencies of the messages received in the interval
     */
    public synchronized void writeCounts(long startMillis, long endMillis, long sent, long acknowledged, long received,
                                         long unreceived, long gaps, Histogram latencyNanos) {
        counts.write((startMillis - startEpochMillis) / 1e3, (endMillis - startEpochMillis) / 1e3,
                new IntervalCounts.Counts(sent, acknowledged, received, unreceived, gaps), latencyNanos);
    }

    /** Where an automatic warm-up ended: {@code #measured from: 11.000 s from StartTime (warm-up auto: settled)}. */
    public void measuredFrom(double secondsFromStart, String how) {
        comment(String.format(Locale.US, "%s%.3f s from StartTime (warm-up auto: %s)", MEASURED_FROM, secondsFromStart, how));
    }

    /** A phase of the run (a backlog reached, consumers released) as a comment in both files, on disk at once. */
    public synchronized void phase(String text) {
        comment(text);
        counts.comment(text);
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
        counts.close();
    }
}
