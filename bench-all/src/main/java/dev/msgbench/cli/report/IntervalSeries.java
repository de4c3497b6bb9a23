package dev.msgbench.cli.report;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;

import dev.msgbench.core.record.HistogramKind;
import dev.msgbench.core.result.DamagedFile;
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

    private static final Pattern INTERVAL_LINE = Pattern.compile(
            "(Tag=[^,]+,)?[0-9]+(\\.[0-9]+)?,[0-9]+(\\.[0-9]+)?,[0-9]+(\\.[0-9]+)?,[A-Za-z0-9+/]+=*");
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

        double end() {
            return startSeconds + lengthSeconds;
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

    /**
     * An empty series when the folder has no latency.hlog.
     *
     * @throws DamagedFile when the log or intervals.csv is not as the suite writes it (cut short)
     */
    public static IntervalSeries read(Path resultsDir) {
        return read(resultsDir, DamagedFile::refuse);
    }

    /**
     * As {@link #read(Path)}, going on past damage: what each file holds before it is kept, and
     * the damage is given to {@code damaged} (which may throw it).
     */
    public static IntervalSeries read(Path resultsDir, Consumer<DamagedFile> damaged) {
        Path file = resultsDir.resolve(IntervalLog.FILE_NAME);
        if (!Files.isRegularFile(file)) {
            return new IntervalSeries(0, Map.of(), List.of());
        }
        Map<HistogramKind, List<Interval>> byKind = new EnumMap<>(HistogramKind.class);
        forEachInterval(file, (kind, h, startSeconds, lengthSeconds) -> byKind.computeIfAbsent(kind, k -> new ArrayList<>())
                .add(summarise(h, startSeconds, lengthSeconds)), damaged);
        return new IntervalSeries(warmupSeconds(file), byKind,
                readCounts(resultsDir.resolve(IntervalLog.COUNTS_FILE_NAME), damaged));
    }

    /**
     * The rows of intervals.csv, by the names of its header; none when there is no such file.
     *
     * @throws DamagedFile when a row is not as the suite writes it (cut short)
     */
    public static List<Counts> readCounts(Path csv) {
        return readCounts(csv, DamagedFile::refuse);
    }

    /** As {@link #readCounts(Path)}, keeping the rows before a damaged one and giving the damage to {@code damaged}. */
    static List<Counts> readCounts(Path csv, Consumer<DamagedFile> damaged) {
        if (!Files.isRegularFile(csv)) {
            return List.of();
        }
        List<Counts> rows = new ArrayList<>();
        List<String> header = null;
        try {
            WholeLines whole = WholeLines.of(csv, WholeLines::printable);
            // line by line: a day has 86,400 rows, kept as numbers only
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(whole.open(), StandardCharsets.ISO_8859_1))) {
                String line;
                while ((line = lines.readLine()) != null) {
                    if (line.startsWith("#") || line.isBlank()) {
                        continue;
                    }
                    if (header == null) {
                        header = List.of(line.split(","));
                        continue;
                    }
                    Counts row = row(header, line);
                    if (row == null) {
                        damaged.accept(new DamagedFile(csv, String.format(Locale.US, "a row after %.3f s is not as "
                                + "msgbench writes it", countedUntil(rows)), countsAfter(rows)));
                        return rows;
                    }
                    rows.add(row);
                }
            }
            if (whole.problem() != null) {
                damaged.accept(new DamagedFile(csv, whole.problem(), countsAfter(rows)));
            } else if (header == null) {
                damaged.accept(new DamagedFile(csv, "empty" + WholeLines.CUT_SHORT, countsAfter(rows)));
            }
            return rows;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + csv, e);
        }
    }

    private static double countedUntil(List<Counts> rows) {
        return rows.isEmpty() ? 0 : rows.get(rows.size() - 1).end();
    }

    private static String countsAfter(List<Counts> rows) {
        return String.format(Locale.US, "its counts after %.3f s", countedUntil(rows));
    }

    /** One row; null when it is not as msgbench writes it (cut short, or bytes a power cut left). */
    private static Counts row(List<String> header, String line) {
        try {
            String[] cells = line.split(",", -1);
            if (cells.length != header.size()) {
                return null;
            }
            double start = Double.parseDouble(cells[header.indexOf("startSeconds")]);
            double end = Double.parseDouble(cells[header.indexOf("endSeconds")]);
            int gaps = header.indexOf("gaps");
            return new Counts(start, end - start, Long.parseLong(cells[header.indexOf("sent")]),
                    Long.parseLong(cells[header.indexOf("acknowledged")]), Long.parseLong(cells[header.indexOf("received")]),
                    Long.parseLong(cells[header.indexOf("unreceived")]), gaps < 0 ? 0 : Long.parseLong(cells[gaps]));
        } catch (RuntimeException e) {
            return null;
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
     * @throws DamagedFile when a line is not as the suite writes it (a log cut short mid-line)
     */
    public static long forEachInterval(Path hlog, IntervalVisitor visitor) {
        return forEachInterval(hlog, visitor, DamagedFile::refuse);
    }

    /**
     * As {@link #forEachInterval(Path, IntervalVisitor)}, stopping at the first line it cannot
     * read and giving that to {@code damaged}. A log cut short mid-line (a run killed or a disk
     * full while writing it) is read up to its last whole line: HdrHistogram's reader fails on a
     * partial one.
     */
    static long forEachInterval(Path hlog, IntervalVisitor visitor, Consumer<DamagedFile> damaged) {
        double readUntil = 0;
        long startMillis = 0;
        try {
            WholeLines whole = WholeLines.of(hlog, IntervalSeries::logLine);
            try (InputStream in = whole.open()) {
                HistogramLogReader reader = new HistogramLogReader(in);
                EncodableHistogram next;
                while ((next = nextOrNull(reader)) != null) {
                    HistogramKind kind = next instanceof Histogram h ? kindOf(h.getTag()) : null;
                    if (kind == null) {
                        continue;
                    }
                    Histogram h = (Histogram) next;
                    double logStartMillis = reader.getStartTimeSec() * 1000;
                    double start = (h.getStartTimeStamp() - logStartMillis) / 1000.0;
                    double length = (h.getEndTimeStamp() - h.getStartTimeStamp()) / 1000.0;
                    visitor.visit(kind, h, start, length);
                    readUntil = Math.max(readUntil, start + length);
                }
                startMillis = Math.round(reader.getStartTimeSec() * 1000);
            } catch (UndecodableHistogram e) {
                damaged.accept(new DamagedFile(hlog, String.format(Locale.US, "a histogram after %.3f s from its start "
                        + "does not decode (bytes a power cut or an editor changed?)", readUntil), after(readUntil)));
                return startMillis;
            }
            if (whole.problem() != null) {
                damaged.accept(new DamagedFile(hlog, whole.problem(), after(readUntil)));
            }
            return startMillis;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + hlog, e);
        }
    }

    /** A line of the interval log: a comment, the legend, or an interval (optional tag, three numbers, base64). */
    private static boolean logLine(String line) {
        return line.isEmpty() || line.startsWith("#") && WholeLines.printable(line) || line.startsWith("\"StartTimestamp\"")
                || INTERVAL_LINE.matcher(line).matches();
    }

    private static EncodableHistogram nextOrNull(HistogramLogReader reader) throws UndecodableHistogram {
        try {
            return reader.nextIntervalHistogram();
        } catch (RuntimeException e) {
            throw new UndecodableHistogram(e);
        }
    }

    /** Well-formed line, bytes that are no compressed histogram: HdrHistogram's reader throws a RuntimeException. */
    private static final class UndecodableHistogram extends Exception {
        UndecodableHistogram(RuntimeException cause) {
            super(cause);
        }
    }

    private static String after(double seconds) {
        return String.format(Locale.US, "what it holds after %.3f s", seconds);
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
        // ISO-8859-1 reads any byte: a log a power cut left may hold some that are not ASCII
        try (var lines = Files.lines(hlog, StandardCharsets.ISO_8859_1)) {
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
