package dev.msgbench.core.broker;

import dev.msgbench.core.UserError;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.OptionalInt;

/**
 * Waits for a broker to become ready, within one time budget shared by all the steps of a start.
 *
 * <p>Fails fast when a watched process exits, rather than waiting out the timeout, and names the
 * log file to read in a one-line message.
 */
public final class Readiness {

    /** A probe: true when ready. An exception means "not yet" and is kept as the cause. */
    @FunctionalInterface
    public interface Check {
        boolean ready() throws Exception;
    }

    private static final long POLL_MILLIS = 100;

    private final Duration timeout;
    private final long deadlineNanos;

    private Readiness(Duration timeout) {
        this.timeout = timeout;
        this.deadlineNanos = System.nanoTime() + timeout.toNanos();
    }

    /** A budget of {@code timeout}, starting now. */
    public static Readiness within(Duration timeout) {
        return new Readiness(timeout);
    }

    public Duration timeout() {
        return timeout;
    }

    public Duration remaining() {
        return Duration.ofNanos(Math.max(0, deadlineNanos - System.nanoTime()));
    }

    /**
     * Polls {@code check} until it returns true.
     *
     * @param subject what is awaited, e.g. "kafka node 2"
     * @param logFile named in the timeout message
     * @param watched processes whose exit fails the wait at once
     * @throws UserError on timeout or when a watched process exits
     */
    public void await(String subject, Path logFile, Collection<ManagedProcess> watched, Check check) {
        Exception lastFailure = null;
        while (true) {
            requireRunning(watched);
            try {
                if (check.ready()) {
                    return;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new UserError("start of " + subject + " was interrupted", e);
            } catch (Exception e) {
                lastFailure = e;
            }
            // a process that died while we probed explains the failed probe better than a timeout
            requireRunning(watched);
            if (System.nanoTime() - deadlineNanos >= 0) {
                throw new UserError(subject + " was not ready within " + describe(timeout) + "; see " + logFile,
                        lastFailure);
            }
            try {
                Thread.sleep(Math.min(POLL_MILLIS, Math.max(1, remaining().toMillis())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new UserError("start of " + subject + " was interrupted", e);
            }
        }
    }

    /** Fails with the exit code and log of the first watched process that has ended. */
    public static void requireRunning(Collection<ManagedProcess> watched) {
        for (ManagedProcess p : watched) {
            OptionalInt code = p.exitCode();
            if (code.isPresent()) {
                throw new UserError(p.name() + " exited with code " + code.getAsInt() + " during start; see "
                        + p.logFile());
            }
        }
    }

    /** "90 s" for whole seconds, "250 ms" otherwise. */
    static String describe(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }
}
