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
        return fields(pid).map(fields -> fields[0].charAt(0));
    }

    /**
     * When the process started, in clock ticks after boot (field 22): with the pid, it names one
     * process and no later one that reuses the pid. Empty when the process is gone, or only its
     * zombie is left.
     */
    public static Optional<Long> startTicks(long pid) {
        return fields(pid).filter(fields -> fields.length > 19 && !fields[0].equals("Z") && !fields[0].equals("X"))
                .map(fields -> Long.parseLong(fields[19]));
    }

    /** The fields of {@code /proc/PID/stat} after the command name: field 3 (the state) first. */
    private static Optional<String[]> fields(long pid) {
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
        return Optional.of(stat.substring(close + 2).split(" "));
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
