package dev.msgbench.core.broker;

import dev.msgbench.core.Setting;
import dev.msgbench.core.UserError;
import dev.msgbench.core.cpu.CpuAffinity;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * One child process the suite started, with a name for messages and a log file that receives its
 * stdout and stderr (never our terminal, where they would mix with results).
 *
 * <p>Signals go to the process and to every process it started, so a wrapper script cannot hide
 * the real server from a stop or a fault injection. Thread-safe.
 */
public final class ManagedProcess {

    /** How long to wait for the kernel to end a process after SIGKILL. */
    private static final Duration AFTER_KILL = Duration.ofSeconds(10);
    private static final long POLL_MILLIS = 20;

    private final String name;
    private final Process process;
    private final Path logFile;
    private final Path marker;
    /** Ends the process if this JVM dies first; null for one that ends itself then (a JavaChild). */
    private final OwnerWatchdog watchdog;

    private ManagedProcess(String name, Process process, Path logFile, Path marker, OwnerWatchdog watchdog) {
        this.name = name;
        this.process = process;
        this.logFile = logFile;
        this.marker = marker;
        this.watchdog = watchdog;
    }

    /**
     * Children run in a session of their own: Ctrl+C in a terminal signals the whole foreground
     * process group, and a broker that heard it directly would die while the run still writes
     * its results and closes its clients. The suite stops its brokers itself, in order.
     */
    private static final Path SETSID = Path.of("/usr/bin/setsid");
    private static final long EXEC_WAIT_MILLIS = 2_000;

    static ManagedProcess start(NativeCommand command, Path markerDir) {
        String program = command.command().get(0);
        if (!isRunnable(program, command)) {
            // checked here because, behind setsid, a missing program is only an exit code later
            throw new UserError("cannot start " + command.name() + " (" + program + "): no such program; "
                    + "is it installed and on the PATH?");
        }
        List<String> argv = new ArrayList<>();
        boolean ownSession = Files.isExecutable(SETSID);
        if (ownSession) {
            argv.add(SETSID.toString());
        }
        if (command.netns() != null) {
            // ip execs the next program in the same process once it has entered the namespace
            argv.addAll(List.of("ip", "netns", "exec", command.netns()));
        }
        if (command.cpus() != null) {
            CpuAffinity.requireTaskset(Setting.BROKER_CPUS);
            argv.addAll(CpuAffinity.prefix(command.cpus()));
        }
        argv.addAll(command.command());
        ProcessBuilder builder = new ProcessBuilder(argv)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(command.logFile().toFile()));
        if (command.workDir() != null) {
            builder.directory(command.workDir().toFile());
        }
        builder.environment().putAll(command.env());
        Process process;
        try {
            Path logDir = command.logFile().toAbsolutePath().getParent();
            if (logDir != null) {
                Files.createDirectories(logDir);
            }
            process = builder.start();
        } catch (IOException e) {
            throw new UserError("cannot start " + command.name() + " (" + command.command().get(0) + "): "
                    + oneLine(e.getMessage()) + "; is it installed and on the PATH?", e);
        }
        Path marker = null;
        OwnerWatchdog watchdog = null;
        try {
            // a pipe nobody writes to: a child that reads stdin sees end of input, not a hang
            process.getOutputStream().close();
            awaitExec(process.toHandle());
            marker = ProcessMarker.forChild(command.name(), process.toHandle(), command.tempDir()).write(markerDir);
            // only a process that leads its own session has a group of its own to end
            if (ownSession && !command.endsWithOwner()) {
                watchdog = OwnerWatchdog.start(command.name(), process.pid(), SETSID, command.tempDir(), marker);
            }
            return new ManagedProcess(command.name(), process, command.logFile(), marker, watchdog);
        } catch (IOException | RuntimeException e) {
            new ManagedProcess(command.name(), process, command.logFile(), marker, watchdog).stop(Duration.ZERO);
            if (e instanceof IOException) {
                throw new UncheckedIOException((IOException) e);
            }
            throw (RuntimeException) e;
        }
    }

    private static boolean isRunnable(String program, NativeCommand command) {
        if (program.contains("/")) {
            Path path = Path.of(program);
            if (!path.isAbsolute() && command.workDir() != null) {
                path = command.workDir().resolve(path);
            }
            return Files.isExecutable(path);
        }
        String searchPath = command.env().getOrDefault("PATH", System.getenv("PATH"));
        if (searchPath == null) {
            return false;
        }
        for (String dir : searchPath.split(java.io.File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Waits until the process shows the program's own command line, which the marker records.
     * setsid execs the next program in the same process (it is not a group leader, so it does
     * not fork), {@code ip netns exec} execs it after entering the namespace, and taskset execs
     * the program after setting the CPUs: a wrapper's command line
     * comes first. And for a moment inside every exec, after the new program's file is set but
     * before its arguments are, /proc shows an empty command line (seen in 1 of 8 reads taken
     * as soon as setsid's exec showed); start() returning does not wait for that moment to pass.
     */
    private static void awaitExec(ProcessHandle handle) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(EXEC_WAIT_MILLIS);
        while (handle.isAlive() && System.nanoTime() < deadline && !showsProgram(handle.info())) {
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static boolean showsProgram(ProcessHandle.Info info) {
        return info.command().filter(c -> !isWrapper(c)).isPresent()
                && info.commandLine().filter(c -> !c.isEmpty()).isPresent();
    }

    private static boolean isWrapper(String program) {
        return program.endsWith("/setsid") || program.endsWith("/taskset") || program.endsWith("/ip");
    }

    public String name() {
        return name;
    }

    public long pid() {
        return process.pid();
    }

    public Path logFile() {
        return logFile;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** The exit code once the process has ended. */
    public OptionalInt exitCode() {
        return process.isAlive() ? OptionalInt.empty() : OptionalInt.of(process.exitValue());
    }

    /**
     * How the process ended, in words ({@link ExitStatus}): "exited with status 1", "killed by
     * signal 9 (SIGKILL)"; null while it runs (a process frozen by SIGSTOP runs).
     */
    public String exitDescription() {
        OptionalInt code = exitCode();
        return code.isPresent() ? ExitStatus.describe(code.getAsInt()) : null;
    }

    /** Waits up to {@code timeout} for the process to end by itself. */
    public OptionalInt awaitExit(Duration timeout) {
        try {
            if (process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                return OptionalInt.of(process.exitValue());
            }
            return OptionalInt.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return exitCode();
        }
    }

    /** Sends {@code signal} to the process and its descendants. */
    public void signal(Signal signal) {
        List<ProcessHandle> tree = tree();
        switch (signal) {
            case TERM -> tree.forEach(ProcessHandle::destroy);
            case KILL -> tree.forEach(ProcessHandle::destroyForcibly);
            case STOP, CONT -> {
                // kill fails when any one pid is gone: a short-lived child (a VM's helper) may end
                // between listing the tree and signalling it, so ask once more for those still alive
                if (!kill(signal, tree) && !kill(signal, alive(tree)) && process.isAlive()) {
                    throw new IllegalStateException("kill -" + signal + " " + name + " (pid " + pid() + ") failed");
                }
            }
        }
    }

    /**
     * TERMs the process and its descendants, waits up to {@code grace}, then KILLs what is left.
     *
     * @return the exit code; 143 is a clean exit on SIGTERM for most servers
     */
    public int stop(Duration grace) {
        stopAll(List.of(this), grace);
        return process.exitValue();
    }

    /**
     * SIGKILLs the process and its descendants, with no TERM first, and returns once they are
     * gone: a crash, as fault injection needs it. Nothing to do for a process that has ended.
     */
    public void kill() {
        List<ProcessHandle> tree = tree();
        tree.forEach(ProcessHandle::destroyForcibly);
        requireGone(awaitAll(tree, AFTER_KILL));
        reap();
    }

    /**
     * Stops all processes together: TERM to every one first, then one shared grace period. Nodes
     * of a cluster must go down together; stopped one by one, the last ones lose their quorum and
     * hang in shutdown.
     */
    public static void stopAll(Collection<ManagedProcess> processes, Duration grace) {
        List<ProcessHandle> handles = new ArrayList<>();
        // collect descendants before the parents die: orphans are re-parented and lost to descendants()
        for (ManagedProcess p : processes) {
            handles.addAll(p.tree());
        }
        handles.forEach(ProcessHandle::destroy);
        // a stopped process keeps a pending TERM until it runs again
        List<ProcessHandle> frozen = handles.stream()
                .filter(h -> ProcStat.isStopped(h.pid()))
                .collect(Collectors.toList());
        if (!frozen.isEmpty()) {
            kill(Signal.CONT, frozen);
        }
        awaitAll(handles, grace);
        handles.stream().filter(ProcStat::isRunning).forEach(ProcessHandle::destroyForcibly);
        requireGone(awaitAll(handles, AFTER_KILL));
        for (ManagedProcess p : processes) {
            p.reap();
        }
    }

    private static void requireGone(List<ProcessHandle> survivors) {
        if (!survivors.isEmpty()) {
            throw new IllegalStateException("processes " + survivors.stream().map(h -> Long.toString(h.pid()))
                    .collect(Collectors.joining(", ")) + " survived SIGKILL for " + AFTER_KILL.toSeconds() + " s");
        }
    }

    @Override
    public String toString() {
        return name + " (pid " + pid() + ")";
    }

    /** The process itself last, so its children are found while it still holds them. */
    private List<ProcessHandle> tree() {
        List<ProcessHandle> tree = new ArrayList<>(process.descendants().collect(Collectors.toList()));
        tree.add(process.toHandle());
        return tree;
    }

    /** Called once the process has ended: collects its exit code, ends its watchdog and drops its marker. */
    private void reap() {
        awaitDead(process);
        if (watchdog != null) {
            watchdog.end();
        }
        try {
            if (marker != null) {
                Files.deleteIfExists(marker);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + marker, e);
        }
    }

    /**
     * Collects the exit of a process that is dead already (or SIGKILLed): uninterruptible, as only
     * the JDK's reaper thread is awaited; an interrupt meanwhile is kept for the caller.
     */
    static void awaitDead(Process process) {
        boolean interrupted = false;
        while (true) {
            try {
                process.waitFor();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Polls until every handle has ended or the time is up; returns those still running. */
    private static List<ProcessHandle> awaitAll(List<ProcessHandle> handles, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        boolean interrupted = false;
        try {
            while (true) {
                // onExit() of a non-child polls every 300 ms and more, and counts zombies as alive
                List<ProcessHandle> running = handles.stream().filter(ProcStat::isRunning).collect(Collectors.toList());
                if (running.isEmpty() || System.nanoTime() - deadline >= 0) {
                    return running;
                }
                try {
                    Thread.sleep(POLL_MILLIS);
                } catch (InterruptedException e) {
                    // the wait is bounded, and giving up early would leave brokers running
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Runs {@code kill -SIGNAL pid...}; true when every process got it. */
    private static List<ProcessHandle> alive(List<ProcessHandle> handles) {
        return handles.stream().filter(ProcessHandle::isAlive).toList();
    }

    private static boolean kill(Signal signal, List<ProcessHandle> handles) {
        if (handles.isEmpty()) {
            return true;
        }
        List<String> command = new ArrayList<>(List.of("kill", "-" + signal.name()));
        handles.forEach(h -> command.add(Long.toString(h.pid())));
        try {
            Process kill = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            return kill.waitFor() == 0;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + String.join(" ", command), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static String oneLine(String message) {
        return message == null ? "" : message.replaceAll("\\s*\\R\\s*", " ");
    }
}
