package dev.msgbench.kafka.nativetool;

import java.util.Optional;
import java.util.regex.Pattern;

import dev.msgbench.core.nativetool.ToolOutput;

/** The rates ProducerPerformance prints, records/sec. */
final class ProducerPerformanceOutput {

    /**
     * The final line, "500000 records sent, 26906.312221 records/sec (2.57 MB/sec), ... 50th, ...":
     * the periodic lines before it have the same start but no percentiles.
     */
    private static final Pattern FINAL = Pattern.compile("[0-9]+ records sent, ([0-9.]+) records/sec .* 50th");
    /** With --warmup-records, after the whole run's line: "200000 steady state records sent, 111358.574610 records/sec ...". */
    private static final Pattern STEADY = Pattern.compile("[0-9]+ steady state records sent, ([0-9.]+) records/sec");

    private ProducerPerformanceOutput() {
    }

    /** The whole run's rate, warm-up included; empty when the run never printed its final line (killed). */
    static Optional<String> finalRate(String output) {
        return ToolOutput.lastGroup(output, FINAL);
    }

    /** The rate after --warmup-records' records. */
    static Optional<String> steadyRate(String output) {
        return ToolOutput.lastGroup(output, STEADY);
    }
}
