package dev.msgbench.core.broker;

import java.util.Map;

/**
 * Says in words how a child process ended, from the exit value Java reports.
 *
 * <p>Java reports a child that a signal ended as 128 + the signal number (SIGKILL: 137), as a
 * shell does, so it cannot be told from a process that called {@code exit(137)} itself. Brokers
 * do not exit with such codes on their own; a wrapper script (RabbitMQ's) that passes on the
 * status of a server killed under it reports the same, which names the right cause too.
 */
public final class ExitStatus {

    private static final int SIGNALLED = 128;
    private static final int MAX_SIGNAL = 64;
    private static final Map<Integer, String> NAMES = Map.ofEntries(
            Map.entry(1, "SIGHUP"), Map.entry(2, "SIGINT"), Map.entry(3, "SIGQUIT"), Map.entry(4, "SIGILL"),
            Map.entry(6, "SIGABRT"), Map.entry(7, "SIGBUS"), Map.entry(8, "SIGFPE"), Map.entry(9, "SIGKILL"),
            Map.entry(11, "SIGSEGV"), Map.entry(13, "SIGPIPE"), Map.entry(14, "SIGALRM"), Map.entry(15, "SIGTERM"));

    private ExitStatus() {
    }

    /**
     * "exited with status 1", "killed by signal 9 (SIGKILL)", or "killed by signal 33" for a
     * signal without a common name.
     *
     * @param exitValue as {@link Process#exitValue()} reports it
     */
    public static String describe(int exitValue) {
        int signal = exitValue - SIGNALLED;
        if (signal < 1 || signal > MAX_SIGNAL) {
            return "exited with status " + exitValue;
        }
        String name = NAMES.get(signal);
        return "killed by signal " + signal + (name == null ? "" : " (" + name + ")");
    }
}
