package dev.msgbench.core.run;

import java.nio.file.Path;

import dev.msgbench.core.result.RunResult;

/**
 * A run that failed after it started. Its partial result (status failed) comes with it, and was
 * also written to {@link #resultsDir()}.
 */
public final class RunFailedException extends Exception {

    private final transient RunResult partialResult;
    private final Path resultsDir;

    RunFailedException(String message, RunResult partialResult, Path resultsDir, Throwable cause) {
        super(message, cause);
        this.partialResult = partialResult;
        this.resultsDir = resultsDir;
    }

    /** What was measured before the failure, with status failed and the error. */
    public RunResult partialResult() {
        return partialResult;
    }

    public Path resultsDir() {
        return resultsDir;
    }
}
