package dev.msgbench.cli;

import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.RunStatus;

/**
 * What a command's exit status means. Scripts and CI jobs branch on these numbers, so a number,
 * once given, keeps its meaning.
 */
public enum ExitCode {

    /** Everything asked for ran; what it found (a missed rate, a low sustainable rate) is a result, not an error. */
    OK(0),
    /** A run failed after it started (its partial results are where it says), or a bug (a stack trace is printed). */
    RUN_FAILED(1),
    /** A mistake the user can fix, reported on one line: a flag, a file, an address nothing answers at. */
    USAGE(2),
    /** compare: NEW is worse than BASE beyond a --max-regression limit; apart from 1 and 2 so CI can tell them apart. */
    REGRESSED(3),
    /**
     * The run completed, and messages the system had acknowledged never reached a consumer: it
     * broke the promise its durability settings made. Apart from a failed run so CI can gate on it.
     */
    ACKNOWLEDGED_LOST(4),
    /**
     * The run ended, and its results folder could not take every file (a full disk, most likely):
     * the figures are in the summary printed, the files that could be written are kept. Apart
     * from a failed run, whose partial results are on disk.
     */
    NOT_WRITTEN(5),
    /** Stopped by Ctrl+C: 128 + SIGINT, as a shell reports a process the key stopped. */
    INTERRUPTED(130);

    private final int code;

    ExitCode(int code) {
        this.code = code;
    }

    /** What the footers of e2e, throughput, run and sweep say of the codes a run gives. */
    public static final String RUN_CODES = "Exit codes: 0 ran (a missed rate and losses the system did not promise "
            + "against are results), 1 a run failed, 2 bad input, 4 acknowledged messages were lost, 5 the results "
            + "could not all be written (a full disk; the summary printed holds the figures), 130 interrupted.";

    /** The process exit status. */
    public int code() {
        return code;
    }

    /**
     * How a run that returned its result ended: complete is 0, or 4 when it lost acknowledged
     * messages; interrupted 130, failed 1.
     */
    public static ExitCode of(RunResult result) {
        return switch (result.status()) {
            case COMPLETE -> result.counts().acknowledgedLost() > 0 ? ACKNOWLEDGED_LOST : OK;
            case INTERRUPTED -> INTERRUPTED;
            case FAILED -> RUN_FAILED;
        };
    }

    /**
     * A child process's exit status read back as ours; a status this tool never gives (a JVM the
     * kernel killed, 137) is a failed run.
     */
    public static ExitCode ofProcess(int status) {
        for (ExitCode exitCode : values()) {
            if (exitCode.code == status) {
                return exitCode;
            }
        }
        return RUN_FAILED;
    }
}
