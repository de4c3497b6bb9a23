package dev.msgbench.core.cpu;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** The CPU time of a process, or of a process and all it started, from {@code /proc/PID/stat}, in clock ticks. */
public final class ProcessTicks {

    /** What a process that is gone (or a machine without {@code /proc}) reports. */
    public static final long GONE = -1;

    private ProcessTicks() {
    }

    /**
     * utime + stime + cutime + cstime: the process's own CPU time and that of the children it
     * has waited for, so that a helper that ran and ended still counts; {@link #GONE} when the
     * process is gone.
     */
    public static long of(long pid) {
        try {
            return parse(Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.US_ASCII));
        } catch (IOException | RuntimeException e) {
            // a process that ends while we read it is gone
            return GONE;
        }
    }

    /**
     * A process and every process it started that still runs (a wrapper script's server, Erlang's
     * port programs); {@link #GONE} when the process itself is gone.
     */
    public static long ofTree(long pid) {
        long own = of(pid);
        if (own == GONE) {
            return GONE;
        }
        Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        if (handle.isEmpty()) {
            return own;
        }
        // read after the parent: a child reaped in between moves into the parent's cutime next time, not twice now
        return own + handle.get().descendants().mapToLong(d -> Math.max(0, of(d.pid()))).sum();
    }

    /**
     * Fields 14 to 17 of a {@code /proc/PID/stat} line. The command name (field 2) is in
     * parentheses and may itself hold spaces and parentheses, so fields count from the last ')'.
     *
     * @throws IllegalArgumentException when the line has too few fields
     */
    static long parse(String stat) {
        int close = stat.lastIndexOf(')');
        String[] f = stat.substring(close + 1).trim().split("\\s+");
        // f[0] is field 3 (state): field n is f[n - 3]
        if (close < 0 || f.length < 15) {
            throw new IllegalArgumentException("not a /proc/PID/stat line: " + stat);
        }
        return Long.parseLong(f[11]) + Long.parseLong(f[12]) + Long.parseLong(f[13]) + Long.parseLong(f[14]);
    }
}
