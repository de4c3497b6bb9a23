package dev.msgbench.core.cpu;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.msgbench.core.Phrase;
import dev.msgbench.core.Setting;
import dev.msgbench.core.UserError;

/**
 * Which CPUs a process may run on (Linux), and taskset to change it.
 *
 * <p>On a machine with few cores the broker and the load generator compete for them, and the
 * waiting shows up as send delay and tail latency that belong to neither; pinning them to
 * separate CPUs removes that. taskset (util-linux, on every Debian) does it without native code:
 * a prefix for the processes we start, {@code taskset -a -p} for our own JVM.
 */
public final class CpuAffinity {

    public static final Path TASKSET = Path.of("/usr/bin/taskset");
    private static final Path ONLINE = Path.of("/sys/devices/system/cpu/online");
    private static final String ALLOWED_KEY = "Cpus_allowed_list:";

    private CpuAffinity() {
    }

    /** The CPUs this machine has online; what a CPU list may name. */
    public static CpuList online() {
        try {
            return CpuList.parse(Files.readString(ONLINE, StandardCharsets.US_ASCII).trim());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the online CPUs from " + ONLINE, e);
        }
    }

    /**
     * Checks that every CPU of {@code cpus} is online here. Not {@code availableProcessors()}: a
     * JVM started under taskset sees only its own CPUs, which may be fewer than the machine has.
     *
     * @throws IllegalArgumentException naming the CPUs that are missing
     */
    public static void requireOnline(CpuList cpus, String text) {
        CpuList online = online();
        List<Integer> missing = cpus.missingFrom(online);
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException("'" + text + "' names CPU" + (missing.size() == 1 ? " " : "s ")
                    + missing.stream().map(String::valueOf).collect(Collectors.joining(", "))
                    + ", which this machine does not have (online CPUs: " + online + ")");
        }
    }

    /** {@code Cpus_allowed_list} of a process (its main thread); empty when it is gone. */
    public static Optional<CpuList> allowed(long pid) {
        return allowedIn(Path.of("/proc", Long.toString(pid), "status"));
    }

    public static CpuList allowedForThisJvm() {
        return allowed(ProcessHandle.current().pid())
                .orElseThrow(() -> new IllegalStateException("/proc/self/status has no " + ALLOWED_KEY));
    }

    /** The command prefix that starts a program on {@code cpus}; its children inherit them. */
    public static List<String> prefix(CpuList cpus) {
        return List.of(TASKSET.toString(), "-c", cpus.toString());
    }

    /**
     * Fails unless taskset can be run.
     *
     * @param origin the setting that needs it, for the message
     */
    public static void requireTaskset(Setting origin) {
        requireTaskset(Phrase.of("%s", origin));
    }

    private static void requireTaskset(Phrase origin) {
        if (!Files.isExecutable(TASKSET)) {
            throw new UserError(Phrase.of("%s needs %s (Debian package util-linux), which is missing; install it or "
                    + "leave out %s", origin, TASKSET, origin));
        }
    }

    /**
     * Moves every thread of this JVM to {@code cpus} and checks that each one is there. Threads
     * started later inherit the mask of the thread that starts them, so call it before any load
     * thread starts. A thread started while taskset walks the list may have been missed; that is
     * why the check reads every thread and taskset gets another go.
     *
     * @param origin the setting that asked for it, for messages
     * @throws UserError when taskset fails or a thread is still elsewhere
     */
    public static void pinThisJvm(CpuList cpus, Phrase origin) {
        requireTaskset(origin);
        long pid = ProcessHandle.current().pid();
        String strayThread = null;
        Phrase tasksetFailure = null;
        for (int attempt = 0; attempt < 5; attempt++) {
            tasksetFailure = runTaskset(pid, cpus, origin);
            // every thread where it should be is what counts: taskset's exit code also reports
            // threads that ended while it walked the list
            strayThread = strayThread(pid, cpus);
            if (strayThread == null) {
                return;
            }
        }
        if (tasksetFailure != null) {
            throw new UserError(tasksetFailure);
        }
        throw new UserError(Phrase.of("%s %s: thread %s of this JVM still runs elsewhere after taskset; is the JVM "
                + "confined by a cgroup cpuset that lacks these CPUs?", origin, cpus, strayThread));
    }

    /** @return why taskset failed, as the error line to show; null when it did its part */
    private static Phrase runTaskset(long pid, CpuList cpus, Phrase origin) {
        List<String> command = List.of(TASKSET.toString(), "-a", "-p", "-c", cpus.toString(), Long.toString(pid));
        try {
            Process taskset = new ProcessBuilder(command).redirectErrorStream(true).start();
            taskset.getOutputStream().close();
            // one or two lines per thread; small enough to read whole before waiting
            String output = new String(taskset.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int exit = awaitUninterruptibly(taskset);
            String failure = exit == 0 ? null : failure(output);
            return failure == null ? null
                    : Phrase.of("%s %s: taskset could not pin this JVM (exit %d): %s", origin, cpus, exit, failure);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + String.join(" ", command), e);
        }
    }

    /**
     * taskset has printed everything and is ending; an interrupted run (Ctrl+C) must still put
     * the JVM back, so the interrupt is kept for the caller rather than acted on here.
     */
    private static int awaitUninterruptibly(Process process) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return process.waitFor();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The id and mask of a thread of {@code pid} not on {@code cpus}, or null when all are. */
    private static String strayThread(long pid, CpuList cpus) {
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        try (Stream<Path> threads = Files.list(tasks)) {
            for (Path thread : threads.collect(Collectors.toList())) {
                Optional<CpuList> allowed = allowedIn(thread.resolve("status"));
                // a thread that ended meanwhile has no status: nothing to check
                if (allowed.isPresent() && !allowed.get().equals(cpus)) {
                    return thread.getFileName() + " (on " + allowed.get() + ")";
                }
            }
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the threads in " + tasks, e);
        }
    }

    private static Optional<CpuList> allowedIn(Path status) {
        List<String> lines;
        try {
            lines = Files.readAllLines(status, StandardCharsets.US_ASCII);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            // a process or thread that ends while we read it: the same as gone
            return Optional.empty();
        }
        for (String line : lines) {
            if (line.startsWith(ALLOWED_KEY)) {
                return Optional.of(CpuList.parse(line.substring(ALLOWED_KEY.length()).trim()));
            }
        }
        return Optional.empty();
    }

    /**
     * Why taskset, which exited with an error, failed; null when the failure was a thread that
     * ended while taskset walked the list ("No such process": the JVM starts and ends threads at
     * any time, more often on a busy machine). taskset stops at that thread, so the check of every
     * thread that follows finds those it did not reach, and taskset gets another go.
     */
    private static final Pattern AFFINITY_LIST = Pattern.compile("pid \\d+'s (current|new) affinity list: .*");

    static String failure(String output) {
        String[] lines = output.strip().split("\\R");
        boolean threadEnded = false;
        boolean onlyAffinityLists = true;
        for (String line : lines) {
            if (line.isBlank()) {
                // seen between the lists when a thread ended while taskset walked them
                continue;
            }
            if (line.startsWith("taskset:")) {
                if (!line.contains("No such process")) {
                    return line;
                }
                threadEnded = true;
            }
            onlyAffinityLists &= AFFINITY_LIST.matcher(line).matches();
        }
        // taskset has also been seen to exit 1 with nothing but the lists, a thread it listed gone:
        // the caller checks every thread afterwards and tries again, so that is no failure either
        return threadEnded || onlyAffinityLists ? null : lines[lines.length - 1];
    }
}
