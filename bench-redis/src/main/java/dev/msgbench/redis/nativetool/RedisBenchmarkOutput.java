package dev.msgbench.redis.nativetool;

import java.util.Optional;
import java.util.regex.Pattern;

import dev.msgbench.core.nativetool.ToolOutput;

/** redis-benchmark's --csv: a header, then "PUBLISH chan xxx","79082.64",... (requests per second second). */
final class RedisBenchmarkOutput {

    private static final Pattern ROW = Pattern.compile("\"(?:PUBLISH|XADD)[^\"]*\",\"([0-9.]+)\"");

    private RedisBenchmarkOutput() {
    }

    static Optional<String> requestsPerSec(String output) {
        return ToolOutput.lastGroup(output, ROW);
    }
}
