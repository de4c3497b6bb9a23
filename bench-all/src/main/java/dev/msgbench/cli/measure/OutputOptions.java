package dev.msgbench.cli.measure;

import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.function.UnaryOperator;

import dev.msgbench.cli.Limits;
import dev.msgbench.core.system.TimeConverter;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** Where results go and how much is printed while a run goes. */
public final class OutputOptions {

    /** What a run writes into its folder, for the footer of --help (docs/results.md says what each holds). */
    public static final String FILES = "result.json, latency.hgrm, service.hgrm, send-delay.hgrm, ack.hgrm (where the "
            + "system acknowledges), hiccup.hgrm, latency.hlog, intervals.csv, with a local broker broker-logs/ and "
            + "with --warmup-messages warmup/ (docs/results.md says what each holds).";

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    @Option(names = "--output", paramLabel = "DIR",
            description = "Results folder (default: results/<timestamp>-<system>). Must be new or empty and writable; "
                    + "checked before any broker starts.")
    Path output;

    @Option(names = "--force",
            description = "Write over the results already in --output (its result.json, latency.hlog, intervals.csv "
                    + "and .hgrm files are deleted first; other files are left): --output results/last --force.")
    boolean force;

    @Option(names = {"-q", "--quiet"},
            description = "Nothing printed while the run goes: no header, live line or progress lines.")
    public boolean quiet;

    @Option(names = "--progress-interval", paramLabel = "TIME", defaultValue = "10s", converter = TimeConverter.class,
            description = "When output is not a terminal (CI logs, tee, nohup): a plain progress line this often, with "
                    + "elapsed time, sent, received, lost and the p99 since the last line; 0 = none. On a terminal "
                    + "the live line shows progress each second instead (default: ${DEFAULT-VALUE}). "
                    + "Example: --progress-interval 1m.")
    public Duration progressInterval;

    /** --progress-interval, checked: the monitor ticks once a second, so a shorter interval would promise too much. */
    public Duration progressInterval(CommandSpec spec) {
        if (!progressInterval.isZero() && progressInterval.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new ParameterException(spec.commandLine(), "--progress-interval must be 0 (none) or at least 1s, got "
                    + Limits.given(spec, "--progress-interval", progressInterval));
        }
        Limits.requireTimeAtMost(spec, "--progress-interval", progressInterval, Limits.MAX_TIME);
        return progressInterval;
    }

    Path resolve(String system) {
        return output != null ? output : Path.of("results", LocalDateTime.now().format(STAMP) + "-" + system);
    }

    /**
     * The folder a run of {@code system} writes, checked and created before anything starts: no
     * earlier result is overwritten without --force, and one that cannot be written costs no broker.
     */
    Path prepare(CommandLine cl, String system) {
        return prepare(cl, system, UnaryOperator.identity());
    }

    /** As {@link #prepare(CommandLine, String)}, for the folder {@code below} gives (a worker's, below --output). */
    Path prepare(CommandLine cl, String system, UnaryOperator<Path> below) {
        Path dir = below.apply(resolve(system));
        OutputFolder.requireUnused(cl, dir, true, force);
        OutputFolder.requireWritable(cl, dir);
        return dir;
    }
}
