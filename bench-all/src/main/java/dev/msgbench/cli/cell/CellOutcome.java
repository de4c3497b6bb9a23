package dev.msgbench.cli.cell;

import dev.msgbench.cli.ExitCode;
import dev.msgbench.core.result.RunResult;

/**
 * How one cell ended, as its runner gives it back.
 *
 * @param exitCode what the cell's command line would have exited with
 * @param result   what it measured: partial (status failed) when it failed after starting; null when
 *                 it measured nothing (the system refused it, its broker did not start, its JVM died)
 * @param error    why it failed, on one line; null when it did not
 */
public record CellOutcome(ExitCode exitCode, RunResult result, String error) {

    /** A run that ended with its result: complete, or interrupted. */
    public static CellOutcome of(RunResult result) {
        return new CellOutcome(ExitCode.of(result), result, result.error());
    }
}
