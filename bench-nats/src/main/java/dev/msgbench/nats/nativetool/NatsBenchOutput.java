package dev.msgbench.nats.nativetool;

import java.util.Optional;
import java.util.regex.Pattern;

import dev.msgbench.core.nativetool.ToolOutput;

/**
 * The rates nats-bench prints: "Pub stats: 1,939,279 msgs/sec ~ 184.94 MB/sec", indented by one
 * space when there are subscribers, and " Sub stats: ..." for its subscriber.
 */
final class NatsBenchOutput {

    private static final Pattern PUB = Pattern.compile(" ?Pub stats: ([0-9,]+) msgs/sec");
    private static final Pattern SUB = Pattern.compile(" ?Sub stats: ([0-9,]+) msgs/sec");

    private NatsBenchOutput() {
    }

    static Optional<String> publisherRate(String output) {
        return ToolOutput.lastGroup(output, PUB).map(NatsBenchOutput::withoutCommas);
    }

    static Optional<String> subscriberRate(String output) {
        return ToolOutput.lastGroup(output, SUB).map(NatsBenchOutput::withoutCommas);
    }

    private static String withoutCommas(String figure) {
        return figure.replace(",", "");
    }
}
