package dev.msgbench.cli.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

import dev.msgbench.core.result.DamagedFile;
import dev.msgbench.core.result.ResultFiles;

/**
 * A latency distribution as HdrHistogram's plotter draws it: latency against percentile, the
 * percentile on a 1/(1-p) axis so that p99.99 is as far from p99.9 as p90 is from p0.
 *
 * <p>The points are those of a .hgrm file (5 ticks per half distance); the last line of a
 * .hgrm (percentile 1, the max, where 1/(1-p) is infinite) is kept apart as {@link #maxMs}.
 *
 * @param points percentiles below 1, in increasing order
 * @param maxMs  the largest value recorded, ms; NaN for an empty distribution
 */
public record PercentileCurve(List<Point> points, double maxMs) {

    /** How the last line of a .hgrm begins. */
    private static final String LAST_LINE = "#[Buckets";
    /** What a reader that goes on without a damaged .hgrm leaves out. */
    private static final String LEFT_OUT = "its latency by percentile";

    /** Same as the .hgrm files the core writes, so a curve from either source has the same points. */
    private static final int TICKS_PER_HALF_DISTANCE = 5;

    /**
     * @param fraction percentile as a fraction, 0 to 1 (exclusive)
     * @param valueMs  latency at that percentile, ms
     */
    public record Point(double fraction, double valueMs) {
        /** The plotter's x: 1/(1-p), so 10 is p90, 100 p99, 1000 p99.9. */
        public double inverseTail() {
            return 1.0 / (1.0 - fraction);
        }
    }

    public PercentileCurve {
        points = List.copyOf(points);
    }

    public boolean isEmpty() {
        return points.isEmpty();
    }

    /** The curve of a histogram of nanoseconds. */
    public static PercentileCurve of(Histogram nanos) {
        List<Point> points = new ArrayList<>();
        if (nanos.getTotalCount() == 0) {
            return new PercentileCurve(points, Double.NaN);
        }
        for (HistogramIterationValue v : nanos.percentiles(TICKS_PER_HALF_DISTANCE)) {
            double fraction = v.getPercentileLevelIteratedTo() / 100.0;
            if (fraction < 1.0) {
                points.add(new Point(fraction, v.getValueIteratedTo() / ResultFiles.HGRM_UNIT_RATIO));
            }
        }
        return new PercentileCurve(points, nanos.getMaxValue() / ResultFiles.HGRM_UNIT_RATIO);
    }

    /**
     * Reads a .hgrm file (HdrHistogram's percentile distribution text, values in ms). A missing
     * file is an empty curve: throughput runs and systems without acks have none of some kinds.
     *
     * @throws DamagedFile when a line is not as HdrHistogram writes it, or the file lacks its
     *                     closing lines (cut short)
     */
    public static PercentileCurve readHgrm(Path file) {
        List<Point> points = new ArrayList<>();
        double max = Double.NaN;
        if (!Files.isRegularFile(file)) {
            return new PercentileCurve(points, max);
        }
        List<String> lines;
        try {
            // ISO-8859-1 reads any byte: a file a power cut left may hold some that are not ASCII
            lines = Files.readAllLines(file, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        boolean closed = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            closed |= line.startsWith(LAST_LINE);
            String[] cols = line.trim().split("\\s+");
            if (cols.length < 3 || line.startsWith("#") || !Character.isDigit(cols[0].charAt(0))) {
                continue; // header, blank line or the #[Mean ...] footer
            }
            double value;
            double fraction;
            try {
                value = Double.parseDouble(cols[0]);
                fraction = Double.parseDouble(cols[1]);
            } catch (NumberFormatException e) {
                throw new DamagedFile(file, String.format(Locale.US, "line %,d is not as HdrHistogram writes it", i + 1),
                        LEFT_OUT);
            }
            if (fraction < 1.0) {
                points.add(new Point(fraction, value));
            } else {
                max = value;
            }
        }
        if (!closed) {
            // its last line may hold a number cut in half, which would read as another
            throw new DamagedFile(file, "cut short: it lacks HdrHistogram's closing " + LAST_LINE + " line"
                    + WholeLines.CUT_SHORT, LEFT_OUT);
        }
        if (Double.isNaN(max) && !points.isEmpty()) {
            max = points.get(points.size() - 1).valueMs();
        }
        return new PercentileCurve(points, max);
    }
}
