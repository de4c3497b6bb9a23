package dev.msgbench.cli.report;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;

import dev.msgbench.core.record.HistogramKind;
import dev.msgbench.core.result.IntervalLog;

/**
 * What latency.hlog says per second: for each kind, one {@link Interval} per interval
 * histogram, read with HdrHistogram's own reader. The latency tag counts messages received
 * (consumer side), send-delay messages sent (publisher side). With them, what intervals.csv
 * counts per second, where the run wrote it (from schema 2 on).
 *
 * @param warmupSeconds where the measured part starts, seconds from the log's StartTime; 0 when the
 *                      log does not say
 * @param byKind        intervals in log order; kinds absent from the log have none
 * @param counts        the rows of intervals.csv; none where the folder has no such file
 */
public record IntervalSeries(double warmupSeconds, Map<HistogramKind, List<Interval>> byKind, List<Counts> counts) {

    private static final Pattern WARMUP = Pattern.compile("#(?:warm-up: |" + IntervalLog.MEASURED_FROM + ")([0-9.]+) s from StartTime");
    private static final double NANOS_PER_MILLI = 1e6;

    /**
     * @param startSeconds from the log's StartTime
     * @param count        values recorded in the interval
     * @param p50Ms        NaN (as p99Ms and maxMs) when the interval is empty
     */
    public record Interval(double startSeconds, double lengthSeconds, long count, double p50Ms, double p99Ms,
                           double maxMs) {
        /** Values per second: messages received (latency) or sent (send-delay) per second. */
        public double ratePerSecond() {
            return lengthSeconds > 0 ? count / lengthSeconds : 0;
        }
    }

    /**
     * One row of intervals.csv.
     *
     * @param sent       in the interval, as acknowledged and received
     * @param unreceived at its end: sent and not received (yet), in flight or lost
     * @param gaps       at its end: of those, the ones below the highest sequence received (0 where
     *                   the file has no such column)
     */
    public record Counts(double startSeconds, double lengthSeconds, long sent, long acknowledged, long received,
                         long unreceived, long gaps) {
        public double perSecond(long count) {
            return lengthSeconds > 0 ? count / lengthSeconds : 0;
        }
    }

    public IntervalSeries {
        EnumMap<HistogramKind, List<Interval>> copy = new EnumMap<>(HistogramKind.class);
        byKind.forEach((k, v) -> copy.put(k, List.copyOf(v)));
        byKind = Map.copyOf(copy);
        counts = List.copyOf(counts);
    }

    public List<Interval> of(HistogramKind kind) {
        return byKind.getOrDefault(kind, List.of());
    }

    /** An empty series when the folder has no latency.hlog. */
    public static IntervalSeries read(Path resultsDir) {
        Path file = resultsDir.resolve(IntervalLog.FILE_NAME);
        if (!Files.isRegularFile(file)) {
            return new IntervalSeries(0, Map.of(), List.of());
        }
        Map<HistogramKind, List<Interval>> byKind = new EnumMap<>(HistogramKind.class);
        forEachInterval(file, (kind, h, startSeconds, lengthSeconds) -> byKind.computeIfAbsent(kind, k -> new ArrayList<>())
                .add(summarise(h, startSeconds, lengthSeconds)));
        return new IntervalSeries(warmupSeconds(file), byKind, readCounts(resultsDir.resolve(IntervalLog.COUNTS_FILE_NAME)));
    }

    /** The rows of intervals.csv, by the names of its header; none when there is no such file. */
    public static List<Counts> readCounts(Path csv) {
        if (!Files.isRegularFile(csv)) {
            return List.of();
        }
        // line by line: a day has 86,400 rows, kept as numbers only
        try (var lines = Files.lines(csv, StandardCharsets.US_ASCII)) {
            var rowLines = lines.filter(l -> !l.startsWith("#") && !l.isBlank()).iterator();
            List<String> header = List.of(rowLines.next().split(","));
            List<Counts> rows = new ArrayList<>();
            while (rowLines.hasNext()) {
                String line = rowLines.next();
                String[] cells = line.split(",", -1);
                double start = Double.parseDouble(cells[header.indexOf("startSeconds")]);
                double end = Double.parseDouble(cells[header.indexOf("endSeconds")]);
                int gaps = header.indexOf("gaps");
                rows.add(new Counts(start, end - start, Long.parseLong(cells[header.indexOf("sent")]),
                        Long.parseLong(cells[header.indexOf("acknowledged")]),
                        Long.parseLong(cells[header.indexOf("received")]),
                        Long.parseLong(cells[header.indexOf("unreceived")]), gaps < 0 ? 0 : Long.parseLong(cells[gaps])));
            }
            return rows;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + csv, e);
        } catch (RuntimeException e) {
            throw new IllegalStateException("cannot read " + csv + ": not as msgbench writes it", e);
        }
    }

    /** Receives each interval histogram (ns) of the log with its start in seconds from StartTime. */
    public interface IntervalVisitor {
        void visit(HistogramKind kind, Histogram histogram, double startSeconds, double lengthSeconds);
    }

    /**
     * Reads every interval histogram under a kind's tag, in log order, with HdrHistogram's own
     * reader; others are passed over: a merged log's worker's own (w0/latency), or not the core's.
     *
     * @return the log's StartTime, epoch ms
     */
    public static long forEachInterval(Path hlog, IntervalVisitor visitor) {
        HistogramLogReader reader;
        try {
            reader = new HistogramLogReader(hlog.toFile());
        } catch (FileNotFoundException e) {
            throw new UncheckedIOException("cannot read " + hlog, e);
        }
        try {
            EncodableHistogram next;
            while ((next = reader.nextIntervalHistogram()) != null) {
                HistogramKind kind = next instanceof Histogram h ? kindOf(h.getTag()) : null;
                if (kind == null) {
                    continue;
                }
                Histogram h = (Histogram) next;
                double logStartMillis = reader.getStartTimeSec() * 1000;
                double start = (h.getStartTimeStamp() - logStartMillis) / 1000.0;
                double length = (h.getEndTimeStamp() - h.getStartTimeStamp()) / 1000.0;
                visitor.visit(kind, h, start, length);
            }
            return Math.round(reader.getStartTimeSec() * 1000);
        } finally {
            reader.close();
        }
    }

    /** The kind a tag names; null for none (no tag, a worker's own "w0/latency", a tag of another tool). */
    private static HistogramKind kindOf(String tag) {
        for (HistogramKind kind : HistogramKind.values()) {
            if (kind.tag().equals(tag)) {
                return kind;
            }
        }
        return null;
    }

    /**
     * From the header's warm-up comment, or for {@code --warmup auto} (whose header gives only the
     * bound) from the comment written when the measure start was decided, later in the log.
     */
    static double warmupSeconds(Path hlog) {
        try (var lines = Files.lines(hlog, StandardCharsets.US_ASCII)) {
            return lines.filter(l -> l.startsWith("#")).map(WARMUP::matcher)
                    .filter(Matcher::find).findFirst().map(m -> Double.parseDouble(m.group(1))).orElse(0.0);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + hlog, e);
        }
    }

    private static Interval summarise(Histogram h, double startSeconds, double lengthSeconds) {
        if (h.getTotalCount() == 0) {
            return new Interval(startSeconds, lengthSeconds, 0, Double.NaN, Double.NaN, Double.NaN);
        }
        return new Interval(startSeconds, lengthSeconds, h.getTotalCount(),
                h.getValueAtPercentile(50) / NANOS_PER_MILLI, h.getValueAtPercentile(99) / NANOS_PER_MILLI,
                h.getMaxValue() / NANOS_PER_MILLI);
    }
}
