package dev.msgbench.core.broker;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

/** The scheduler state of a process, read from {@code /proc/PID/stat} (Linux). */
public final class ProcStat {

    private ProcStat() {
    }

    /**
     * The state letter: R running, S sleeping, D disk wait, T stopped, Z zombie, and so on; empty
     * when the process is gone or there is no {@code /proc}.
     */
    public static Optional<Character> state(long pid) {
        String stat;
        try {
            stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            // a process that ends while we read it: the same as gone
            return Optional.empty();
        }
        // the command name in parentheses may itself contain ") ", so search from the end
        int close = stat.lastIndexOf(')');
        if (close < 0 || close + 2 >= stat.length()) {
            return Optional.empty();
        }
        return Optional.of(stat.charAt(close + 2));
    }

    /**
     * Whether the process still runs. Unlike {@link ProcessHandle#isAlive()} a zombie counts as
     * dead: an owner JVM killed with SIGKILL stays a zombie until its parent reaps it.
     */
    public static boolean isRunning(ProcessHandle handle) {
        if (!handle.isAlive()) {
            return false;
        }
        return state(handle.pid()).map(s -> s != 'Z' && s != 'X').orElse(true);
    }

    public static boolean isStopped(long pid) {
        return state(pid).map(s -> s == 'T').orElse(false);
    }
}
