package dev.msgbench.kafka.nativetool;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

import dev.msgbench.core.nativetool.ToolOutput;

/**
 * The rates ConsumerPerformance prints. Its lines are "start.time, end.time, data.consumed.in.MB,
 * MB.sec, data.consumed.in.nMsg, nMsg.sec, rebalance.time.ms, fetch.time.ms, fetch.MB.sec,
 * fetch.nMsg.sec", the first two dates; with --show-detailed-stats a line per interval instead,
 * "time, threadId, ..." with the cumulative count in the fifth field, and no final line.
 *
 * <p>The figure is fetch.nMsg.sec, the rate after the group join: its nMsg.sec counts the join,
 * which from a fresh JVM also loads and compiles the client's code (0.3 to 2.6 s seen, up to 70 %
 * of the whole time for 200,000 records), where ours joins after producing in the same JVM.
 */
final class ConsumerPerformanceOutput {

    private static final String TIMED_OUT = "WARNING: Exiting before consuming";
    private static final Pattern FINAL = Pattern.compile("([0-9]{4}-[0-9-]+ [0-9:]+, [0-9]{4}-[0-9-]+ [0-9:]+, .*)");
    private static final Pattern DETAILED = Pattern.compile("[0-9]{4}-[0-9-]+ [0-9:]+, [0-9]+, ");
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss:SSS", Locale.ROOT);
    private static final int FETCH_MSGS_PER_SEC = 9;
    private static final int COUNT = 4;

    private ConsumerPerformanceOutput() {
    }

    /**
     * fetch.nMsg.sec from the final line; empty when the run timed out before reading every record
     * (its WARNING line says so, and its rate is over fewer records) or printed no final line.
     */
    static Optional<String> fetchRate(String output) {
        if (ToolOutput.anyLineStartsWith(output, TIMED_OUT)) {
            return Optional.empty();
        }
        return ToolOutput.lastGroup(output, FINAL).map(line -> line.split(",")[FETCH_MSGS_PER_SEC].trim());
    }

    /**
     * With --show-detailed-stats, after a warm-up of {@code warmupRecords}: the rate from the first
     * line that counts at least that many records to the last line. The records after the last
     * line are left out on both ends of the window, which is off by less than the reporting
     * interval at each end. Empty when the run timed out, or read too little after the warm-up
     * for two lines.
     */
    static Optional<String> steadyRate(String output, long warmupRecords) {
        if (ToolOutput.anyLineStartsWith(output, TIMED_OUT)) {
            return Optional.empty();
        }
        Long firstMs = null;
        long firstCount = 0;
        Long lastMs = null;
        long lastCount = 0;
        for (String line : ToolOutput.lines(output)) {
            if (!DETAILED.matcher(line).lookingAt()) {
                continue;
            }
            String[] fields = line.split(", ");
            long count = Long.parseLong(fields[COUNT].trim());
            if (count < warmupRecords) {
                continue;
            }
            long ms = epochMillis(fields[0]);
            if (firstMs == null) {
                firstMs = ms;
                firstCount = count;
            } else {
                lastMs = ms;
                lastCount = count;
            }
        }
        if (lastMs == null || lastMs <= firstMs) {
            return Optional.empty();
        }
        return Optional.of(String.format(Locale.ROOT, "%.4f", (lastCount - firstCount) * 1000.0 / (lastMs - firstMs)));
    }

    /** "2026-11-25 03:47:55:725", the tool's local time; read as UTC, since only differences count. */
    private static long epochMillis(String stamp) {
        return LocalDateTime.parse(stamp.trim(), STAMP).toInstant(ZoneOffset.UTC).toEpochMilli();
    }
}
