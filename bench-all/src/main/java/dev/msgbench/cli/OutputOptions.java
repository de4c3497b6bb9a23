package dev.msgbench.cli;

import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

import picocli.CommandLine.Option;

/** Where results go and how much is printed while a run goes. */
final class OutputOptions {

    /** What a run writes into its folder, for the footer of --help (docs/results.md says what each holds). */
    static final String FILES = "result.json, latency.hgrm, service.hgrm, send-delay.hgrm, ack.hgrm (where the "
            + "system acknowledges), hiccup.hgrm, latency.hlog, intervals.csv and, with a local broker, broker-logs/ "
            + "(docs/results.md says what each holds).";

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    @Option(names = "--output", paramLabel = "DIR",
            description = "Results folder (default: results/<timestamp>-<system>).")
    Path output;

    @Option(names = {"-q", "--quiet"},
            description = "No live line while the run goes (it is off anyway when output is not a terminal).")
    boolean quiet;

    Path resolve(String system) {
        return output != null ? output : Path.of("results", LocalDateTime.now().format(STAMP) + "-" + system);
    }
}
