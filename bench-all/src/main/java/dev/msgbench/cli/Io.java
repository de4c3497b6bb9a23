package dev.msgbench.cli;

import java.io.PrintStream;

/**
 * Where commands print. Passed in rather than taken from System so that tests run the command
 * line in-process and read what it printed.
 *
 * @param terminal whether a person is watching: enables the live line and bold warnings
 */
public record Io(PrintStream out, PrintStream err, boolean terminal) {

    public static Io system() {
        return new Io(System.out, System.err, System.console() != null);
    }
}
