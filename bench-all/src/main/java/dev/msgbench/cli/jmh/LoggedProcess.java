package dev.msgbench.cli.jmh;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A child process (Maven, JMH's host JVM) whose output goes line by line into a log and to a
 * watcher that prints progress. It is stopped with every process it started (JMH's forks) on
 * timeout, on an interrupt and when this JVM exits (Ctrl+C): none outlives the tune.
 */
final class LoggedProcess {

    /** How long a stopped process may take to end before it is killed. */
    private static final Duration GRACE = Duration.ofSeconds(10);

    /** @param exit the exit code, or -1 when it was stopped after {@code timeout} */
    record Ended(int exit, boolean timedOut) {
    }

    private LoggedProcess() {
    }

    /**
     * Runs {@code command} in {@code dir}, the command line first in {@code log}.
     *
     * @throws InterruptedException after stopping the process, when this thread is interrupted
     */
    static Ended run(List<String> command, Path dir, Path log, Duration timeout, Consumer<String> lines)
            throws IOException, InterruptedException {
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8), true)) {
            out.println(String.join(" ", command));
            Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
            Thread stop = new Thread(() -> stop(process), "msgbench-tune-jmh-stop");
            Runtime.getRuntime().addShutdownHook(stop);
            Thread reader = new Thread(() -> copy(process, out, lines), "msgbench-tune-jmh-output");
            reader.setDaemon(true);
            reader.start();
            try {
                if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    stop(process);
                    reader.join(GRACE.toMillis());
                    return new Ended(-1, true);
                }
                // the output may still hold its last lines: the result file's name among them
                reader.join(GRACE.toMillis());
                return new Ended(process.exitValue(), false);
            } finally {
                stop(process);
                Runtime.getRuntime().removeShutdownHook(stop);
            }
        }
    }

    private static void copy(Process process, PrintWriter out, Consumer<String> lines) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                out.println(line);
                lines.accept(line);
            }
        } catch (IOException e) {
            // the process was stopped while it printed: its log ends where it ended
            out.println("(output cut: " + e.getMessage() + ")");
        }
    }

    /** Its children first: JMH's forks would otherwise outlive a host that was killed. */
    private static void stop(Process process) {
        if (!process.isAlive()) {
            return;
        }
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        try {
            if (!process.waitFor(GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
