package dev.msgbench.cli;

import dev.msgbench.cli.cell.CellRunner;
import dev.msgbench.core.security.UrlPasswords;
import picocli.CommandLine;

/**
 * The runner: {@code java -jar bench-all.jar <command>}. Only the entry: where it prints, and the
 * tool's command line ({@link CommandLines}); no command refers back to it (a child JVM names it
 * through {@link ToolLaunch}).
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
        return CommandLines.tool(io);
    }

    /** @param runner what e2e, throughput, run and sweep run their cells with */
    static CommandLine commandLine(Io io, CellRunner runner) {
        return CommandLines.tool(io, runner);
    }
}
