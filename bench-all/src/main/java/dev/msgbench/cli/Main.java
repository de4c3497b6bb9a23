package dev.msgbench.cli;

import java.io.PrintWriter;
import java.util.List;

import dev.msgbench.cli.report.CompareCommand;
import dev.msgbench.cli.report.ReportCommand;
import dev.msgbench.cli.systems.SystemTarget;
import dev.msgbench.cli.systems.Targets;

import dev.msgbench.core.UserError;
import dev.msgbench.core.run.RunFailedException;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The runner: {@code java -jar bench-all.jar <command>}.
 *
 * <p>{@code main -> run -> command}: tests call {@link #run} and get the exit code instead of
 * an exit. Errors a user can fix print one line and exit 2; a failed run exits 1 after saying
 * where its partial results are; anything else is a bug and prints its stack trace.
 */
public final class Main {

    public static final int OK = 0;
    public static final int RUN_FAILED = 1;
    public static final int USAGE = 2;
    public static final int INTERRUPTED = 130;

    private Main() {
    }

    public static void main(String[] args) {
        // Log4j (in the jar for a client's logging) first loads when a client closes, which on
        // Ctrl+C is during shutdown, where it would print a warning that it cannot add its hook
        System.setProperty("log4j2.shutdownHookEnabled", "false");
        System.exit(run(Io.system(), args));
    }

    public static int run(Io io, String... args) {
        CommandLine cl = commandLine(io);
        return cl.execute(args);
    }

    static CommandLine commandLine(Io io) {
        CommandLine cl = new CommandLine(new RootCommand());
        List<SystemTarget> e2eTargets = Targets.create();
        cl.addSubcommand("e2e", withSystemFlags(new CommandLine(new E2eCommand(io, e2eTargets)), e2eTargets));
        List<SystemTarget> throughputTargets = Targets.create();
        cl.addSubcommand("throughput", withSystemFlags(new CommandLine(new ThroughputCommand(io, throughputTargets)),
                throughputTargets));
        cl.addSubcommand("broker", new BrokerCommand(io));
        cl.addSubcommand("run", new RunCommand(io));
        cl.addSubcommand("sweep", new SweepCommand(io));
        cl.addSubcommand("jmh-compare", new JmhCompareCommand());
        cl.addSubcommand("tune", new TuneCommand(io));
        cl.addSubcommand("report", new ReportCommand(io));
        cl.addSubcommand("compare", new CompareCommand(io));
        cl.setOut(new PrintWriter(io.out(), true));
        cl.setErr(new PrintWriter(io.err(), true));
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setUsageHelpAutoWidth(true);
        cl.setUsageHelpWidth(100);
        cl.setParameterExceptionHandler((e, args) -> {
            io.err().println("error: " + oneLine(e.getMessage()) + " (see " + commandName(e.getCommandLine()) + " --help)");
            return USAGE;
        });
        cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            if (e instanceof UserError) {
                io.err().println("error: " + oneLine(e.getMessage()));
                return USAGE;
            }
            if (e instanceof RunFailedException) {
                io.err().println("error: the run failed: " + oneLine(e.getMessage()) + "; partial results in "
                        + ((RunFailedException) e).resultsDir());
                return RUN_FAILED;
            }
            io.err().println("error: unexpected failure (a bug; please report it with this trace):");
            e.printStackTrace(io.err());
            return RUN_FAILED;
        });
        return cl;
    }

    /** Each system's own flags, after the common ones in --help. */
    private static CommandLine withSystemFlags(CommandLine command, List<SystemTarget> targets) {
        for (SystemTarget target : targets) {
            command.addMixin(target.name(), CommandSpec.forAnnotatedObjectLenient(target));
        }
        return command;
    }

    private static String commandName(CommandLine cl) {
        return cl.getCommandSpec().qualifiedName();
    }

    static String oneLine(String message) {
        return message == null ? "" : message.replaceAll("\\s*\\R\\s*", " ").trim();
    }
}
