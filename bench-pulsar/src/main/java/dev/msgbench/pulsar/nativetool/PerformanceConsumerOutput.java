package dev.msgbench.pulsar.nativetool;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.msgbench.core.nativetool.ToolOutput;
import dev.msgbench.pulsar.nativetool.PerfLog.Line;

/**
 * The rate of pulsar-perf consume. Its final line, "Aggregated throughput stats --- 1000000
 * records received --- 250645.085 msg/s --- ...", is true to its time: the consumer exits as soon
 * as it has the asked messages (its "------------------- DONE" line), and its rate is counted from
 * "Start receiving from 1 consumers" (subscribed) to then. A killed run prints that line too, from
 * its shutdown hook, so the DONE line is what says it finished. Progress lines every 10 s,
 * "Throughput received: 3004931 msg --- 300493.1 msg/s ...", count every message received so far.
 */
final class PerformanceConsumerOutput {

    private static final Pattern DONE = Pattern.compile("------------------- DONE -+");
    private static final Pattern FINAL = Pattern.compile(
            "Aggregated throughput stats --- ([0-9]+) records received --- ([0-9.]+) msg/s");
    private static final Pattern PROGRESS = Pattern.compile("Throughput received: +([0-9]+) msg");

    private PerformanceConsumerOutput() {
    }

    /** The final line's msg/s; empty when the run never reached its DONE line (killed, or timed out). */
    static Optional<String> coldRate(String output) {
        if (PerfLog.last(output, DONE).isEmpty()) {
            return Optional.empty();
        }
        return finalLine(output).map(m -> m.group(2));
    }

    /**
     * After a warm-up of {@code warmup} messages: from the first progress line that counts them to
     * the DONE line, over the messages the final line counts. Empty without a DONE line, or when no
     * progress line came between the warm-up's end and it, or fewer than half the measured messages
     * came after that line ({@link PerfLog#rateAfter}).
     */
    static Optional<String> steadyRate(String output, long warmup) {
        Optional<Line> done = PerfLog.last(output, DONE);
        Optional<Matcher> last = finalLine(output);
        if (done.isEmpty() || last.isEmpty()) {
            return Optional.empty();
        }
        return PerfLog.rateAfter(PerfLog.all(output, PROGRESS), warmup, done.get(), Long.parseLong(last.get().group(1)));
    }

    private static Optional<Matcher> finalLine(String output) {
        Matcher found = null;
        for (String line : ToolOutput.lines(output)) {
            Matcher m = FINAL.matcher(line);
            if (m.find()) {
                found = m;
            }
        }
        return Optional.ofNullable(found);
    }
}
