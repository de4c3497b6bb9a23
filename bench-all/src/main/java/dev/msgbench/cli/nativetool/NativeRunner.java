package dev.msgbench.cli.nativetool;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import dev.msgbench.core.cpu.CpuAffinity;
import dev.msgbench.core.cpu.CpuList;
import dev.msgbench.core.system.NativeFigure;
import dev.msgbench.core.system.NativeRun;
import dev.msgbench.core.system.NativeRun.Role;
import dev.msgbench.core.system.NativeRun.Step;
import dev.msgbench.core.units.Durations;

/**
 * Runs a {@link NativeRun}'s commands as child processes, as its javadoc orders them, each
 * measured step pinned where asked and bounded by the timeout, every step's output appended to
 * its log. Every process it starts is stopped before it returns, and on Ctrl+C (a shutdown hook),
 * so that no load generator outlives the comparison.
 */
final class NativeRunner {

    /** A listener's first line says it has subscribed; one that says nothing for this long never will. */
    private static final Duration LISTENER_READY = Duration.ofSeconds(10);
    /** From SIGTERM to SIGKILL. */
    private static final Duration STOP_GRACE = Duration.ofSeconds(5);
    /** The exit status of a step that could not start or was stopped at the timeout, which exec has said. */
    private static final int SAID = -1;

    private final String system;
    private final Path log;
    private final CpuList cpus;
    private final Duration timeout;
    private final PrintStream err;
    private final Set<Process> live = ConcurrentHashMap.newKeySet();

    /**
     * @param system  how messages name the system
     * @param log     the run's log; a step with a log suffix writes to this path with it appended
     * @param cpus    where the measured steps run (taskset -c), or null for anywhere
     * @param timeout the longest any one step may take
     */
    NativeRunner(String system, Path log, CpuList cpus, Duration timeout, PrintStream err) {
        this.system = system;
        this.log = log;
        this.cpus = cpus;
        this.timeout = timeout;
        this.err = err;
    }

    /** The run's figure, or empty when it gave none (what went wrong is printed). */
    Optional<NativeFigure> run(NativeRun run) throws InterruptedException {
        Map<Step, String> outputs = new HashMap<>();
        boolean setUp = false;
        Thread hook = stopOnExit();
        try {
            try {
                for (Step step : steps(run, Role.LISTENER)) {
                    if (!listen(step)) {
                        return Optional.empty();
                    }
                }
                for (Step step : steps(run, Role.SETUP)) {
                    if (!succeeded(step, outputs)) {
                        return Optional.empty();
                    }
                }
                setUp = true;
                for (Step step : steps(run, Role.MEASURED)) {
                    outputs.put(step, exec(step).output);
                }
            } finally {
                stopAll();
                if (setUp) {
                    for (Step step : steps(run, Role.CLEANUP)) {
                        succeeded(step, outputs);
                    }
                }
            }
            return run.reader().read(step -> outputs.getOrDefault(step, ""));
        } finally {
            removeHook(hook);
        }
    }

    /** Runs each step in turn until one fails; whether all succeeded. */
    boolean runAll(List<Step> steps) throws InterruptedException {
        Thread hook = stopOnExit();
        try {
            for (Step step : steps) {
                if (!succeeded(step, new HashMap<>())) {
                    return false;
                }
            }
            return true;
        } finally {
            removeHook(hook);
        }
    }

    private static List<Step> steps(NativeRun run, Role role) {
        return run.steps().stream().filter(s -> s.role() == role).toList();
    }

    private boolean succeeded(Step step, Map<Step, String> outputs) throws InterruptedException {
        Outcome outcome = exec(step);
        outputs.put(step, outcome.output);
        if (outcome.status != 0) {
            if (outcome.status != SAID) {
                err.println(system + ": " + step.name() + ": " + outcome.lastLine());
            }
            return false;
        }
        return true;
    }

    private record Outcome(int status, String output) {

        String lastLine() {
            List<String> lines = output.lines().filter(l -> !l.isBlank()).toList();
            return lines.isEmpty() ? "exit status " + status : lines.get(lines.size() - 1).strip();
        }
    }

    /** Runs one step to its end, or until the timeout; its output is what it appended to its log. */
    private Outcome exec(Step step) throws InterruptedException {
        List<String> argv = new ArrayList<>();
        if (step.role() == Role.MEASURED && cpus != null) {
            argv.addAll(CpuAffinity.prefix(cpus));
        }
        argv.addAll(step.argv());
        Path file = Path.of(log + step.logSuffix());
        long before = size(file);
        Process process;
        try {
            process = new ProcessBuilder(argv).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(file.toFile())).start();
        } catch (IOException e) {
            err.println(system + ": " + step.name() + ": cannot start " + argv.get(0) + ": " + e.getMessage());
            return new Outcome(SAID, "");
        }
        live.add(process);
        try {
            closeInput(process);
            int status;
            if (process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                status = process.exitValue();
            } else {
                err.println(system + ": " + step.name() + " did not end within " + Durations.format(timeout)
                        + "; stopped it (--timeout)");
                stop(process);
                status = SAID;
            }
            return new Outcome(status, readFrom(file, before));
        } finally {
            stop(process);
            live.remove(process);
        }
    }

    /**
     * Starts a listener and waits for its first line, which must be its ready line (a subscriber's
     * confirmation); the rest of what it prints is dropped (a subscriber prints every message).
     * Whether it is listening.
     */
    private boolean listen(Step step) throws InterruptedException {
        Process process;
        try {
            process = new ProcessBuilder(step.argv()).redirectErrorStream(true).start();
        } catch (IOException e) {
            err.println(system + ": " + step.name() + ": cannot start " + step.argv().get(0) + ": " + e.getMessage());
            return false;
        }
        live.add(process);
        closeInput(process);
        CountDownLatch printed = new CountDownLatch(1);
        AtomicReference<String> first = new AtomicReference<>();
        Thread drain = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                first.set(in.readLine());
                printed.countDown();
                char[] sink = new char[8192];
                while (in.read(sink) >= 0) {
                    // dropped: the listener is there to be written to, not read
                }
            } catch (IOException e) {
                printed.countDown();
            }
        }, "native-tool listener");
        drain.setDaemon(true);
        drain.start();
        if (!printed.await(LISTENER_READY.toMillis(), TimeUnit.MILLISECONDS)) {
            err.println(system + ": " + step.name() + " printed nothing within " + Durations.format(LISTENER_READY));
            return false;
        }
        if (!step.readyLine().equals(first.get())) {
            err.println(system + ": " + step.name() + ": " + (first.get() == null ? "ended at once" : first.get()));
            return false;
        }
        return true;
    }

    private static void closeInput(Process process) {
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            // the tool reads nothing from us: a stdin that cannot close changes nothing
        }
    }

    private void stopAll() throws InterruptedException {
        for (Process process : List.copyOf(live)) {
            stop(process);
            live.remove(process);
        }
    }

    /** SIGTERM to the process and what it started, SIGKILL after the grace. */
    private static void stop(Process process) throws InterruptedException {
        if (!process.isAlive()) {
            return;
        }
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        if (!process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly().waitFor();
        }
    }

    /** On Ctrl+C, kill the tool too: it is our child, and would otherwise run on against the broker. */
    private Thread stopOnExit() {
        Thread hook = new Thread(() -> {
            for (Process process : live) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
            }
        }, "native-tool stop");
        Runtime.getRuntime().addShutdownHook(hook);
        return hook;
    }

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // shutting down already: the hook is running or has run
        }
    }

    private static long size(Path file) {
        try {
            return Files.exists(file) ? Files.size(file) : 0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String readFrom(Path file, long offset) {
        try (SeekableByteChannel channel = Files.newByteChannel(file)) {
            channel.position(offset);
            return new String(Channels.newInputStream(channel).readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
