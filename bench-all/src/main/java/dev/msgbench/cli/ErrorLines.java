package dev.msgbench.cli;

import java.io.PrintStream;

import dev.msgbench.core.UserError;
import dev.msgbench.core.result.FileNotWritten;
import dev.msgbench.core.run.ResultsNotWritten;
import dev.msgbench.core.run.RunFailedException;
import picocli.CommandLine.ParameterException;

/**
 * How the command line says what went wrong, whichever command or cell it happened in: a
 * mistake the user can fix is one line, a failed run says where its partial results are, a
 * results file the disk refused names the file and the reason, and anything else is a bug and
 * prints its stack trace.
 */
public final class ErrorLines {

    private ErrorLines() {
    }

    /** Prints what went wrong and returns the exit code it means. */
    public static ExitCode report(Exception e, PrintStream err) {
        if (e instanceof ParameterException bad) {
            err.println("error: " + oneLine(UnmatchedLine.messageOf(bad)) + " (see "
                    + bad.getCommandLine().getCommandSpec().qualifiedName() + " --help)");
            return ExitCode.USAGE;
        }
        if (e instanceof UserError) {
            err.println("error: " + oneLine(FlagNames.messageOf(e)));
            return ExitCode.USAGE;
        }
        if (e instanceof ResultsNotWritten notWritten) {
            String runFailure = notWritten.runFailure(FlagNames.FLAGS);
            if (runFailure != null) {
                err.println("error: the run failed: " + runFailure);
            }
            err.println("error: " + oneLine(e.getMessage()));
            return ExitCode.NOT_WRITTEN;
        }
        if (e instanceof FileNotWritten notWritten) {
            err.println("error: " + oneLine(notWritten.getMessage()));
            return ExitCode.NOT_WRITTEN;
        }
        if (e instanceof RunFailedException failed) {
            err.println("error: the run failed: " + oneLine(e.getMessage()) + "; partial results in "
                    + failed.resultsDir());
            return ExitCode.RUN_FAILED;
        }
        err.println("error: unexpected failure (a bug; please report it with this trace):");
        e.printStackTrace(err);
        return ExitCode.RUN_FAILED;
    }

    /** A message on one line, as an error line needs it; empty for none. */
    public static String oneLine(String message) {
        return message == null ? "" : message.replaceAll("\\s*\\R\\s*", " ").trim();
    }
}
