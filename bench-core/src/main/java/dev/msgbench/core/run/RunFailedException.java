package dev.msgbench.core.run;

import java.nio.file.Path;

/** A run that failed after it started; its partial results were written to {@link #resultsDir()}. */
public final class RunFailedException extends Exception {

    private final Path resultsDir;

    RunFailedException(String message, Path resultsDir, Throwable cause) {
        super(message, cause);
        this.resultsDir = resultsDir;
    }

    public Path resultsDir() {
        return resultsDir;
    }
}
