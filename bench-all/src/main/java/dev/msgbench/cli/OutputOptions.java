package dev.msgbench.cli;

import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

import picocli.CommandLine;
import picocli.CommandLine.Option;

/** Where results go and how much is printed while a run goes. */
final class OutputOptions {

    /** What a run writes into its folder, for the footer of --help (docs/results.md says what each holds). */
    static final String FILES = "result.json, latency.hgrm, service.hgrm, send-delay.hgrm, ack.hgrm (where the "
            + "system acknowledges), hiccup.hgrm, latency.hlog and, with a local broker, broker-logs/ "
            + "(docs/results.md says what each holds).";

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    @Option(names = "--output", paramLabel = "DIR",
            description = "Results folder (default: results/<timestamp>-<system>). Must be new or empty and writable; "
                    + "checked before any broker starts.")
    Path output;

    @Option(names = "--force",
            description = "Write over the results already in --output (its result.json, latency.hlog and .hgrm files "
                    + "are deleted first; other files are left): --output results/last --force.")
    boolean force;

    @Option(names = {"-q", "--quiet"},
            description = "No live line while the run goes (it is off anyway when output is not a terminal).")
    boolean quiet;

    Path resolve(String system) {
        return output != null ? output : Path.of("results", LocalDateTime.now().format(STAMP) + "-" + system);
    }

    /**
     * The folder a run of {@code system} writes, checked and created before anything starts: no
     * earlier result is overwritten without --force, and one that cannot be written costs no broker.
     */
    Path prepare(CommandLine cl, String system) {
        Path dir = resolve(system);
        OutputFolder.requireUnused(cl, dir, true, force);
        OutputFolder.requireWritable(cl, dir);
        return dir;
    }
}
