package dev.msgbench.cli.sweep;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.msgbench.cli.CommandLines;
import dev.msgbench.cli.Io;
import dev.msgbench.cli.cell.CellRunner;
import picocli.CommandLine.Option;

/**
 * OpenMessaging Benchmark's {@code producerRate: 0}, its search for the highest rate, run as a
 * sweep with the file's other settings. OMB's search judges throughput only (the producers keep
 * their rate and the consumers keep up), so that is the default objective here: a step passes when
 * its target rate is met and nothing is lost; {@code --objective} adds a latency limit.
 */
public final class OmbRateSearch {

    /** run's flag for such a file. */
    public static final class Options {
        @Option(names = "--objective", paramLabel = "PNN<=LATENCY|none",
                description = "For an OpenMessaging Benchmark file with producerRate: 0 (a rate search, run as sweep): the "
                        + "sweep's objective (default: none: a step passes when its target rate is met and nothing is "
                        + "lost, as OMB's search judges).")
        public String objective;
    }

    private OmbRateSearch() {
    }

    /**
     * The sweep command line of the file's one cell.
     *
     * @param cellArgs the cell's e2e command line, without a rate
     */
    static List<String> sweepArgs(List<String> cellArgs, String objective, Path output, boolean dryRun, boolean quiet) {
        List<String> args = new ArrayList<>(List.of("sweep"));
        // e2e's flags, --system included, are the sweep's: it passes on what it does not know itself
        args.addAll(cellArgs.subList(1, cellArgs.size()));
        args.addAll(List.of("--objective", objective));
        if (output != null) {
            args.addAll(List.of("--output", output.toString()));
        }
        if (quiet) {
            args.add("--quiet");
        }
        if (dryRun) {
            args.add("--dry-run");
        }
        return args;
    }

    /** Runs the sweep on a command line of its own, as if typed, and gives its exit code. */
    public static int run(Io io, CellRunner runner, String file, List<String> cellArgs, String objective, Path output,
                   boolean dryRun, boolean quiet) {
        String chosen = objective == null ? Objective.NONE.text() : objective;
        List<String> args = sweepArgs(cellArgs, chosen, output, dryRun, quiet);
        io.out().println(file + ": producerRate 0 is OpenMessaging Benchmark's search for the highest rate: run as "
                + "sweep, objective " + chosen + (objective == null ? " (the default: a step passes when its target rate is "
                + "met and nothing is lost, as OMB's search judges; --objective p99<=10ms judges latency too)" : ""));
        io.out().println("    " + String.join(" ", args));
        return CommandLines.tool(io, runner).execute(args.toArray(String[]::new));
    }
}
