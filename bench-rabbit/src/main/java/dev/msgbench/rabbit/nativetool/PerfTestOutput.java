package dev.msgbench.rabbit.nativetool;

import java.util.Optional;
import java.util.regex.Pattern;

import dev.msgbench.core.nativetool.ToolOutput;

/** The averages PerfTest prints when it stops: "id: test-005258-541, sending rate avg: 7433 msg/s". */
final class PerfTestOutput {

    private static final Pattern SENDING = Pattern.compile(".*sending rate avg: ([0-9.]+) msg/s");
    private static final Pattern RECEIVING = Pattern.compile(".*receiving rate avg: ([0-9.]+) msg/s");

    private PerfTestOutput() {
    }

    static Optional<String> sendingRate(String output) {
        return ToolOutput.lastGroup(output, SENDING);
    }

    static Optional<String> receivingRate(String output) {
        return ToolOutput.lastGroup(output, RECEIVING);
    }
}
