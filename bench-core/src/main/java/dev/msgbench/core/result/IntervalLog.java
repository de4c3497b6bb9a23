package dev.msgbench.core.result;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

import dev.msgbench.core.cpu.CpuUsage;
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
    private final WatchedOutput bytes;
    private final HistogramLogWriter writer;
    private final IntervalCounts counts;
    private final long startEpochMillis;
    /** Null while every interval is written as it comes (a merged log, a run within the fine span). */
    private Coarsening coarsening;

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
            this.bytes = new WatchedOutput(dir.resolve(FILE_NAME), new FileOutputStream(dir.resolve(FILE_NAME).toFile()));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot write " + dir.resolve(FILE_NAME), e);
        }
        this.out = new PrintStream(bytes, false, StandardCharsets.US_ASCII);
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
        if (coarsening != null && startEpochMillis >= coarsening.fromMillis()) {
            coarsening.add(tag, interval, startEpochMillis, endEpochMillis);
            return;
        }
        writeNow(tag, interval, startEpochMillis, endEpochMillis);
    }

    private void writeNow(String tag, Histogram interval, long startEpochMillis, long endEpochMillis) {
        interval.setStartTimeStamp(startEpochMillis);
        interval.setEndTimeStamp(endEpochMillis);
        interval.setTag(tag);
        writer.outputIntervalHistogram(interval);
    }

    /**
     * From here on, intervals that start {@code spans.fineForSeconds()} after StartTime (or after the
     * warm-up, if that is later) are written coarser; before the first interval.
     *
     * @param runSeconds how long the run is planned, warm-up included: what the budget is spread over
     */
    public synchronized IntervalLog coarsen(IntervalSpans spans, double warmupSeconds, double runSeconds) {
        if (spans.coarsens(Math.max(runSeconds, warmupSeconds))) {
            long from = startEpochMillis + Math.round(Math.max(spans.fineForSeconds(), warmupSeconds) * 1000);
            coarsening = new Coarsening(spans, from, startEpochMillis + Math.round(runSeconds * 1000));
            writer.outputComment(String.format(Locale.US, "intervals: 1 s until %.3f s from StartTime, then %.3f s or longer, "
                    + "to stay within %d bytes", (from - startEpochMillis) / 1e3, spans.coarseSeconds(), spans.maxBytes()));
        }
        return this;
    }

    /**
     * The lengths of the intervals written so far and the bytes of the log: for result.json, once closed.
     */
    public synchronized Map<String, Object> describe() {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("intervals", coarsening == null ? List.of(Map.of("fromSeconds", 0.0, "lengthSeconds", 1.0))
                : coarsening.lengths(startEpochMillis));
        d.put("maxBytes", coarsening == null ? null : coarsening.spans.maxBytes());
        d.put("bytes", bytes.count());
        return d;
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
        writeCounts(startMillis, endMillis, sent, acknowledged, received, unreceived, gaps, latencyNanos, null);
    }

    /**
     * The same, with the interval's CPU use: its columns of intervals.csv, and a comment in the log
     * after the interval's histograms ({@code #cpu 3.000-4.000 s: machine 93% busy of 2 cores ...}),
     * one per coarser interval where the log coarsens.
     *
     * @param cpu null where the CPUs were not watched: empty columns, no comment
     */
    public synchronized void writeCounts(long startMillis, long endMillis, long sent, long acknowledged, long received,
                                         long unreceived, long gaps, Histogram latencyNanos, CpuUsage cpu) {
        counts.write((startMillis - startEpochMillis) / 1e3, (endMillis - startEpochMillis) / 1e3,
                new IntervalCounts.Counts(sent, acknowledged, received, unreceived, gaps), latencyNanos, cpu);
        if (cpu == null) {
            return;
        }
        if (coarsening != null && coarsening.grouping(startMillis)) {
            coarsening.addCpu(cpu);
        } else {
            writeCpu(cpu, startMillis, endMillis);
        }
    }

    /** How each interval's CPU comment begins. */
    public static final String CPU_COMMENT = "cpu ";

    private void writeCpu(CpuUsage cpu, long startMillis, long endMillis) {
        writer.outputComment(String.format(Locale.US, "%s%.3f-%.3f s: %s", CPU_COMMENT, (startMillis - startEpochMillis) / 1e3,
                (endMillis - startEpochMillis) / 1e3, cpu.line()));
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
        if (coarsening != null) {
            coarsening.flush();
        }
        out.close();
        counts.close();
    }

    /**
     * The log and the counts beside it where the disk failed them (filled up, most likely): each
     * kept as far as it was written; none when both were written whole. Once closed.
     */
    public synchronized List<FileNotWritten> notWritten() {
        List<FileNotWritten> failed = new ArrayList<>();
        for (FileNotWritten f : new FileNotWritten[] {bytes.failure(true), counts.failure()}) {
            if (f != null) {
                failed.add(f);
            }
        }
        return failed;
    }

    /**
     * Adds the intervals of each tag from {@code fromMillis} on until they span the current length,
     * then writes one per tag; once six such groups are written at a length, lengthens the intervals
     * still to come whenever, at the groups' mean size, they would take the log past the budget.
     */
    private final class Coarsening {
        /** Groups written at a length before their mean size forecasts the rest: one group alone (a burst) is no forecast. */
        private static final int FORECAST_GROUPS = 6;

        private final IntervalSpans spans;
        private final long fromMillis;
        private final long plannedEndMillis;
        private final Map<String, Histogram> pending = new LinkedHashMap<>();
        /** The CPU use of the group's intervals, written after its histograms. */
        private CpuUsage pendingCpu;
        /** Where each length began, epoch ms, and the length in seconds. */
        private final List<long[]> lengths = new ArrayList<>();
        private long lengthMillis;
        private long groupStartMillis = -1;
        private long groupEndMillis;
        /** Groups written at the current length, and their bytes. */
        private int groupsAtLength;
        private long bytesAtLength;

        Coarsening(IntervalSpans spans, long fromMillis, long plannedEndMillis) {
            this.spans = spans;
            this.fromMillis = fromMillis;
            this.plannedEndMillis = plannedEndMillis;
            this.lengthMillis = Math.round(spans.coarseSeconds() * 1000);
        }

        long fromMillis() {
            return fromMillis;
        }

        void add(String tag, Histogram interval, long startMillis, long endMillis) {
            if (groupStartMillis >= 0 && startMillis >= groupStartMillis + lengthMillis) {
                flush();
            }
            if (groupStartMillis < 0) {
                groupStartMillis = startMillis;
                if (lengths.isEmpty() || lengths.get(lengths.size() - 1)[1] != lengthMillis) {
                    lengths.add(new long[] {startMillis, lengthMillis});
                }
            }
            groupEndMillis = Math.max(groupEndMillis, endMillis);
            Histogram sum = pending.get(tag);
            if (sum == null) {
                // a copy: the caller recycles its interval histograms
                pending.put(tag, interval.copy());
            } else {
                sum.add(interval);
            }
        }

        /**
         * Whether an interval's counts that start at {@code startMillis} go with a group: an
         * interval's histograms are written before its counts, so its group is the current one.
         */
        boolean grouping(long startMillis) {
            return startMillis >= fromMillis && groupStartMillis >= 0;
        }

        void addCpu(CpuUsage cpu) {
            pendingCpu = pendingCpu == null ? cpu : pendingCpu.plus(cpu);
        }

        void flush() {
            if (groupStartMillis < 0) {
                return;
            }
            long before = bytes.count();
            for (Map.Entry<String, Histogram> e : pending.entrySet()) {
                writeNow(e.getKey(), e.getValue(), groupStartMillis, groupEndMillis);
            }
            if (pendingCpu != null) {
                // counted with the group's bytes, so that the budget's forecast includes it
                writeCpu(pendingCpu, groupStartMillis, groupEndMillis);
                pendingCpu = null;
            }
            out.flush();
            groupsAtLength++;
            bytesAtLength += bytes.count() - before;
            long longest = Math.round(IntervalSpans.LONGEST_SECONDS * 1000);
            if (groupsAtLength >= FORECAST_GROUPS) {
                long groupBytes = bytesAtLength / groupsAtLength;
                while (lengthMillis < longest
                        && bytes.count() + groupsLeft(groupEndMillis) * groupBytes > spans.maxBytes()) {
                    lengthMillis = Math.min(longest, lengthMillis * IntervalSpans.LONGER);
                    groupsAtLength = 0;
                    bytesAtLength = 0;
                }
            }
            pending.clear();
            groupStartMillis = -1;
        }

        private long groupsLeft(long nowMillis) {
            return Math.max(0, (plannedEndMillis - nowMillis + lengthMillis - 1) / lengthMillis);
        }

        List<Map<String, Object>> lengths(long logStartMillis) {
            List<Map<String, Object>> all = new ArrayList<>();
            all.add(Map.of("fromSeconds", 0.0, "lengthSeconds", 1.0));
            lengths.forEach(l -> all.add(Map.of("fromSeconds", (l[0] - logStartMillis) / 1e3, "lengthSeconds", l[1] / 1e3)));
            return all;
        }
    }
}
