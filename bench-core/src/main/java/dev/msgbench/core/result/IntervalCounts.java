package dev.msgbench.core.result;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;

import org.HdrHistogram.Histogram;

import dev.msgbench.core.cpu.CpuUsage;

/**
 * intervals.csv: per interval of the run (a second, as latency.hlog's), how many messages were
 * sent, acknowledged and received, how many are not received so far, and the latency of those
 * received, so that an outage shows as rows: sent going on, received at 0, unreceived growing.
 * Flushed each interval, so a run killed mid-way leaves the rows so far.
 */
final class IntervalCounts implements AutoCloseable {

    static final String FILE_NAME = "intervals.csv";
    static final String HEADER = "startSeconds,endSeconds,sent,acknowledged,received,unreceived,gaps,latencyP50Ms,"
            + "latencyP99Ms,latencyMaxMs," + String.join(",", CpuUsage.CSV_HEADER);
    private static final String NO_CPU = ",".repeat(CpuUsage.CSV_HEADER.size() - 1);

    /** About what a row takes: the size of intervals.csv a run states up front. */
    static final int ROW_BYTES = 90;

    private final PrintStream out;
    private final WatchedOutput file;

    IntervalCounts(Path dir) {
        try {
            file = new WatchedOutput(dir.resolve(FILE_NAME), new FileOutputStream(dir.resolve(FILE_NAME).toFile()));
            out = new PrintStream(file, false, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + dir.resolve(FILE_NAME), e);
        }
        out.println("# msgbench intervals: seconds from the start of the run (latency.hlog's StartTime); sent, "
                + "acknowledged, received: in the interval; at its end, unreceived: sent and not received (yet), in flight "
                + "or lost; gaps: of those, the ones below the highest received; latency: of the messages received in it, "
                + "ms, empty when none was; cpu: of the wall time of all the machine's CPUs in it, the share not idle and "
                + "the share the hypervisor took (steal); cores: CPU seconds a second of the load generator (this JVM) and of every "
                + "process of the local broker; empty where not watched");
        out.println(HEADER);
        out.flush();
    }

    /** @param cpu the interval's CPU use, or null where it was not watched */
    void write(double startSeconds, double endSeconds, Counts counts, Histogram latencyNanos, CpuUsage cpu) {
        boolean any = latencyNanos.getTotalCount() > 0;
        out.printf(Locale.US, "%.3f,%.3f,%d,%d,%d,%d,%d,%s,%s,%s,%s%n", startSeconds, endSeconds, counts.sent(),
                counts.acknowledged(), counts.received(), counts.unreceived(), counts.gaps(), any ? millis(latencyNanos.getValueAtPercentile(50)) : "",
                any ? millis(latencyNanos.getValueAtPercentile(99)) : "", any ? millis(latencyNanos.getMaxValue()) : "",
                cpu == null ? NO_CPU : String.join(",", cpu.csvColumns()));
        out.flush();
    }

    /** A line the readers skip ({@code #...}), between the rows of the intervals it falls in. */
    void comment(String text) {
        out.println("#" + text);
        out.flush();
    }

    /**
     * One interval's counts.
     *
     * @param sent         in the interval, as acknowledged and received
     * @param unreceived   at its end: sent and not received (yet), in flight or lost
     * @param gaps         at its end: of those, the ones below the highest sequence received
     */
    record Counts(long sent, long acknowledged, long received, long unreceived, long gaps) {
    }

    private static String millis(long nanos) {
        return String.format(Locale.US, "%.6f", nanos / 1e6);
    }

    @Override
    public void close() {
        out.close();
    }

    /** Where the disk failed the file, kept as far as it was written; null when it did not. */
    FileNotWritten failure() {
        return file.failure(true);
    }
}
