package dev.msgbench.cli;

import java.io.PrintWriter;
import java.util.List;

import dev.msgbench.cli.broker.BrokerCommand;
import dev.msgbench.cli.broker.CalibrateCommand;
import dev.msgbench.cli.broker.FloorCommand;
import dev.msgbench.cli.cell.CellRunner;
import dev.msgbench.cli.cell.InProcessCellRunner;
import dev.msgbench.cli.jmh.JmhCompareCommand;
import dev.msgbench.cli.measure.E2eCommand;
import dev.msgbench.cli.measure.ResponderCommand;
import dev.msgbench.cli.measure.SystemFlagsHelp;
import dev.msgbench.cli.measure.ThroughputCommand;
import dev.msgbench.cli.merge.MergeCommand;
import dev.msgbench.cli.nativetool.NativeToolCommand;
import dev.msgbench.cli.report.CompareCommand;
import dev.msgbench.cli.report.ReportCommand;
import dev.msgbench.cli.sweep.SweepCommand;
import dev.msgbench.cli.tune.TuneCommand;
import dev.msgbench.cli.workload.RunCommand;
import dev.msgbench.core.system.SystemTarget;
import dev.msgbench.core.system.Systems;
import picocli.CommandLine;

/**
 * The command lines the runner builds: the whole tool ({@link Main}'s), and the measuring
 * commands alone, which parse a workload cell or a sweep step as if typed. Each holds fresh
 * command objects and fresh systems, so each parse starts from the defaults.
 */
public final class CommandLines {

    private CommandLines() {
    }

    /** The whole tool, its measuring commands running their cells in this JVM. */
    public static CommandLine tool(Io io) {
        return tool(io, new InProcessCellRunner(io));
    }

    /** @param runner what e2e, throughput, run and sweep run their cells with */
    public static CommandLine tool(Io io, CellRunner runner) {
        CommandLine cl = measuring(io, runner);
        cl.addSubcommand("broker", new BrokerCommand(io));
        List<SystemTarget> responderTargets = Systems.create();
        cl.addSubcommand("responder", SystemFlagsHelp.install(new CommandLine(new ResponderCommand(io, responderTargets)),
                responderTargets));
        cl.addSubcommand("run", new RunCommand(io, runner));
        cl.addSubcommand("sweep", new SweepCommand(io, runner));
        cl.addSubcommand("calibrate", new CalibrateCommand(io, runner));
        cl.addSubcommand("floor", new FloorCommand(io));
        cl.addSubcommand("jmh-compare", new JmhCompareCommand());
        cl.addSubcommand("tune", new TuneCommand(io));
        cl.addSubcommand("report", new ReportCommand(io));
        cl.addSubcommand("compare", new CompareCommand(io));
        cl.addSubcommand("merge", new MergeCommand(io));
        cl.addSubcommand("native-tool", NativeToolCommand.commandLine(io));
        return configured(cl, io);
    }

    /** e2e and throughput alone, for parsing and checking a cell's arguments (their cells run in this JVM). */
    public static CommandLine measuring(Io io) {
        return configured(measuring(io, new InProcessCellRunner(io)), io);
    }

    private static CommandLine measuring(Io io, CellRunner runner) {
        CommandLine cl = new CommandLine(new RootCommand());
        List<SystemTarget> e2eTargets = Systems.create();
        cl.addSubcommand("e2e", SystemFlagsHelp.install(new CommandLine(new E2eCommand(runner, e2eTargets)), e2eTargets));
        List<SystemTarget> throughputTargets = Systems.create();
        cl.addSubcommand("throughput", SystemFlagsHelp.install(new CommandLine(new ThroughputCommand(runner, throughputTargets)),
                throughputTargets));
        return cl;
    }

    /** Where it prints, how it reads enums and lays out help, and how errors become one line and an exit code. */
    private static CommandLine configured(CommandLine cl, Io io) {
        cl.setOut(new PrintWriter(io.out(), true));
        cl.setErr(new PrintWriter(io.err(), true));
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setUsageHelpAutoWidth(true);
        cl.setUsageHelpWidth(100);
        cl.setParameterExceptionHandler((e, args) -> ErrorLines.report(e, io.err()).code());
        cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> ErrorLines.report(e, io.err()).code());
        return cl;
    }
}
