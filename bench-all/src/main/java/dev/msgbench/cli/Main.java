package dev.msgbench.cli;

import java.io.PrintWriter;
import java.util.List;

import dev.msgbench.cli.merge.MergeCommand;
import dev.msgbench.cli.report.CompareCommand;
import dev.msgbench.cli.report.ReportCommand;
import dev.msgbench.core.security.UrlPasswords;
import dev.msgbench.core.system.SystemTarget;
import dev.msgbench.core.system.Systems;

import picocli.CommandLine;

/**
 * The runner: {@code java -jar bench-all.jar <command>}. Only wiring: the commands, their
 * runner, where they print, and how errors are reported ({@link ErrorLines}).
 *
 * <p>{@code main -> run -> command}: tests call {@link #run} and get the exit code instead of
 * an exit.
 */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        // Log4j (in the jar for a client's logging) first loads when a client closes, which on
        // Ctrl+C is during shutdown, where it would print a warning that it cannot add its hook
        System.setProperty("log4j2.shutdownHookEnabled", "false");
        // before any client library takes hold of stdout or stderr for its logging
        Io.Scrubbed system = Io.system().scrubbed();
        System.setOut(system.io().out());
        System.setErr(system.io().err());
        int code;
        try {
            code = run(system.io(), args);
        } finally {
            system.flushAll();
        }
        System.exit(code);
    }

    /**
     * Runs one command. Passwords in URLs on the command line are known as secrets before it is
     * parsed, and what the command prints is cleaned of every secret, so that even an error that
     * echoes an argument does not show one.
     */
    public static int run(Io io, String... args) {
        UrlPasswords.registerAll(args);
        Io.Scrubbed scrubbed = io.scrubbed();
        try {
            return commandLine(scrubbed.io()).execute(args);
        } finally {
            scrubbed.flushAll();
        }
    }

    /** The command line whose measuring commands run their cells in this JVM. */
    static CommandLine commandLine(Io io) {
        return commandLine(io, new InProcessCellRunner(io));
    }

    /** @param runner what e2e, throughput, run and sweep run their cells with */
    static CommandLine commandLine(Io io, CellRunner runner) {
        CommandLine cl = new CommandLine(new RootCommand());
        List<SystemTarget> e2eTargets = Systems.create();
        cl.addSubcommand("e2e", SystemFlagsHelp.install(new CommandLine(new E2eCommand(runner, e2eTargets)), e2eTargets));
        List<SystemTarget> throughputTargets = Systems.create();
        cl.addSubcommand("throughput", SystemFlagsHelp.install(new CommandLine(new ThroughputCommand(runner, throughputTargets)),
                throughputTargets));
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
