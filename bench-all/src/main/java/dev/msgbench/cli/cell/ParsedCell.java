package dev.msgbench.cli.cell;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.msgbench.core.security.UrlPasswords;

import dev.msgbench.cli.measure.EchoOptions;
import dev.msgbench.cli.measure.MessageOptions;
import dev.msgbench.cli.measure.MetricsOptions;
import dev.msgbench.cli.measure.OutputOptions;
import dev.msgbench.cli.measure.PinningOptions;
import dev.msgbench.cli.measure.TargetOptions;
import dev.msgbench.cli.workers.WorkerPlan;
import dev.msgbench.core.fault.FaultPlan;
import dev.msgbench.core.run.Pacing;
import dev.msgbench.core.system.SystemTarget;
import picocli.CommandLine.Model.CommandSpec;

/**
 * One measurement, parsed and checked, as a {@link CellRunner} takes it: an e2e or throughput
 * command line, a workload file's cell, a sweep step or a tune child. Whichever it came from,
 * picocli parsed it into the command's own options and the command checked them
 * ({@link dev.msgbench.cli.measure.CheckedCommand#checkFlags()}), so every cell is checked exactly as the command line is.
 *
 * @param command the command: e2e or throughput
 * @param args    the command line it was parsed from, the command first (what a child JVM is given)
 * @param system  the system --system selected, holding that system's own flags
 * @param pacing  the schedule, or the unpaced limits of a throughput run
 * @param quiet   nothing printed while it runs
 * @param progressInterval how often a plain progress line is printed when output is not a terminal; 0 for none
 * @param faults  the faults to inject (--fault) and --fault-timeout
 * @param echo    --pattern and, for echo, where the responder runs
 * @param worker  this process's part of a run split over several workers (--workers), and --start-at
 * @param metrics where the run's figures are served live (--metrics-port), or none
 */
public record ParsedCell(String command, List<String> args, SystemTarget system, TargetOptions target, PinningOptions pinning,
                  MessageOptions messages, Pacing pacing, boolean quiet, Duration progressInterval, FaultPlan faults,
                  EchoOptions echo, WorkerPlan worker, MetricsOptions.Settings metrics) {

    public ParsedCell {
        args = List.copyOf(args);
    }

    /** The cell a command's parsed and checked options make. */
    public static ParsedCell of(CommandSpec spec, SystemTarget system, TargetOptions target, PinningOptions pinning,
                         MessageOptions messages, Pacing pacing, OutputOptions output, FaultPlan faults,
                         EchoOptions echo) {
        List<String> args = new ArrayList<>(List.of(spec.name()));
        args.addAll(spec.commandLine().getParseResult().expandedArgs());
        // a workload file's url: reaches here without passing Main's look at the command line
        UrlPasswords.registerAll(args.toArray(new String[0]));
        return new ParsedCell(spec.name(), args, system, target, pinning, messages, pacing, output.quiet,
                output.progressInterval(spec), faults, echo, WorkerPlan.SINGLE, MetricsOptions.Settings.NONE);
    }

    /** This worker's part of the cell: its share of the schedule (--workers), and --start-at. */
    public ParsedCell withWorker(WorkerPlan plan) {
        return new ParsedCell(command, args, system, target, pinning, messages, plan.worker() ? plan.share() : pacing,
                quiet, progressInterval, faults, echo, plan, metrics);
    }

    /** The cell with its figures served live (--metrics-port). */
    public ParsedCell withMetrics(MetricsOptions.Settings settings) {
        return new ParsedCell(command, args, system, target, pinning, messages, pacing, quiet, progressInterval, faults,
                echo, worker, settings);
    }
}
