package dev.msgbench.pulsar.nativetool;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.msgbench.core.nativetool.ToolOutput;

/**
 * pulsar-perf's log, as pulsar-perf-log4j2.xml lays it out: "2026-11-29 18:49:21.478 INFO  [thread]
 * PerformanceProducer - message". Its figures are read from the lines' time stamps: the tool
 * prints a progress line only every 10 s, and its producer's final rate is over a time that runs
 * to the next of those 10 s ticks ({@link PerformanceProducerOutput}).
 */
final class PerfLog {

    private static final Pattern STAMPED = Pattern.compile("([0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{8}\\.[0-9]{3}) .*");
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS", Locale.ROOT);

    /** A line whose message matched: when it was printed, and its pattern's first group, if it has one. */
    record Line(long epochMillis, String group) {

        long count() {
            return Long.parseLong(group);
        }
    }

    private PerfLog() {
    }

    /** Every stamped line whose message {@code pattern} finds, in order. */
    static List<Line> all(String output, Pattern pattern) {
        List<Line> found = new ArrayList<>();
        for (String line : ToolOutput.lines(output)) {
            Matcher stamped = STAMPED.matcher(line);
            if (!stamped.matches()) {
                continue;
            }
            Matcher m = pattern.matcher(line);
            if (m.find()) {
                found.add(new Line(epochMillis(stamped.group(1)), m.groupCount() > 0 ? m.group(1) : null));
            }
        }
        return found;
    }

    static Optional<Line> first(String output, Pattern pattern) {
        return all(output, pattern).stream().findFirst();
    }

    static Optional<Line> last(String output, Pattern pattern) {
        List<Line> all = all(output, pattern);
        return all.isEmpty() ? Optional.empty() : Optional.of(all.get(all.size() - 1));
    }

    /**
     * The rate from the first progress line that counts at least {@code warmup} messages to the
     * end, {@code total} messages at {@code end}. The tool prints a progress line every 10 s, so
     * the window starts up to 10 s after the warm-up ends: it must hold at least half the measured
     * messages, or the figure would be over a second or less of a long run. Empty when no progress
     * line before the end counts the warm-up, or when the window is shorter than that.
     */
    static Optional<String> rateAfter(List<Line> progress, long warmup, Line end, long total) {
        long leastInWindow = (total - warmup + 1) / 2;
        return progress.stream()
                .filter(line -> line.count() >= warmup && line.epochMillis() < end.epochMillis())
                .findFirst()
                .filter(from -> total - from.count() >= leastInWindow)
                .map(from -> rate(total - from.count(), end.epochMillis() - from.epochMillis()));
    }

    /** Messages over milliseconds, per second, as the figure is written. */
    static String rate(long messages, long millis) {
        return String.format(Locale.ROOT, "%.3f", messages * 1000.0 / millis);
    }

    /** The tool's local time, read as UTC: only differences count. */
    private static long epochMillis(String stamp) {
        return LocalDateTime.parse(stamp, STAMP).toInstant(ZoneOffset.UTC).toEpochMilli();
    }
}
