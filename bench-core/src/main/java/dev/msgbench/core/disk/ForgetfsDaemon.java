package dev.msgbench.core.disk;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import dev.msgbench.core.UserError;

/**
 * One forgetfs process serving one mount, driven through its input and output, one line each
 * way (the protocol is in forgetfs.c's header). Its input is also its lifeline: when this JVM
 * dies, however it dies, the pipe closes and the daemon unmounts and ends by itself.
 *
 * <p>It runs in a session of its own, as the brokers do: Ctrl+C in a terminal must not end the
 * mount before the broker on it has stopped.
 */
final class ForgetfsDaemon {

    /** How long a mount, a cut (a rollback of every unsynced change) or a stop may take. */
    static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(60);
    /** The daemon itself forces a busy mount off after 10 s; this is the margin beyond it. */
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);
    private static final Path SETSID = Path.of("/usr/bin/setsid");
    /** What the reader thread queues at the end of the daemon's output. */
    private static final String END = "end of output";

    private final Process process;
    private final OutputStream input;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final Path mountPoint;
    private final Path logFile;

    private ForgetfsDaemon(Process process, Path mountPoint, Path logFile) {
        this.process = process;
        this.input = process.getOutputStream();
        this.mountPoint = mountPoint;
        this.logFile = logFile;
        Thread reader = new Thread(this::readOutput, "msgbench-forgetfs-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    /** Mounts {@code backing} on {@code mountPoint} and returns once the mount is there. */
    static ForgetfsDaemon start(Path program, Path backing, Path mountPoint, Path graveyard, PageCache pageCache,
            Path logFile) {
        List<String> argv = new ArrayList<>();
        if (Files.isExecutable(SETSID)) {
            argv.add(SETSID.toString());
        }
        argv.add(program.toString());
        if (pageCache == PageCache.WRITE_THROUGH) {
            argv.add("write-through");
        }
        argv.addAll(List.of(backing.toString(), mountPoint.toString(), graveyard.toString()));
        Process process;
        try {
            Files.createDirectories(logFile.toAbsolutePath().getParent());
            process = new ProcessBuilder(argv).redirectError(ProcessBuilder.Redirect.appendTo(logFile.toFile())).start();
        } catch (IOException e) {
            throw new UserError("cannot start forgetfs (" + program + "): " + e.getMessage(), e);
        }
        ForgetfsDaemon daemon = new ForgetfsDaemon(process, mountPoint, logFile);
        String answer = daemon.awaitLine();
        if (!answer.startsWith("ready ")) {
            daemon.killAndDetach();
            throw new UserError("forgetfs could not mount " + mountPoint + ": " + daemon.failure(answer));
        }
        return daemon;
    }

    long pid() {
        return process.pid();
    }

    /**
     * A power cut: the daemon forgets what was never made durable, detaches the mount and ends.
     * Every process that used the mount must be dead already.
     *
     * @return its report, "cut files=F restored=R discarded=D undone=U"
     */
    String cut() {
        String answer = ask("cut");
        if (!answer.startsWith("cut ")) {
            killAndDetach();
            throw new IllegalStateException("forgetfs on " + mountPoint + " did not roll back: " + failure(answer));
        }
        awaitExit(ANSWER_TIMEOUT);
        return answer;
    }

    /** @return "status files=F saved=S pending=P" */
    String status() {
        String answer = ask("status");
        if (!answer.startsWith("status ")) {
            throw new IllegalStateException("forgetfs on " + mountPoint + " did not report: " + failure(answer));
        }
        return answer;
    }

    /**
     * Makes the disk slow or full, or well again: "slow NS", "slow-writes NS", "full on", "full
     * off", or "sick" to only ask. Returns once the daemon has applied it.
     *
     * @return its report, "sick slow=NS slow-writes=NS full=0|1 held=H"
     */
    String sicken(String command) {
        String answer = ask(command);
        if (!answer.startsWith("sick ")) {
            throw new IllegalStateException("forgetfs on " + mountPoint + " did not apply '" + command + "': "
                    + failure(answer));
        }
        return answer;
    }

    /** Unmounts, keeping everything: closing its input is the daemon's signal to stop. */
    void stop() {
        try {
            input.close();
        } catch (IOException e) {
            // the daemon is gone already: the wait below finds it ended
        }
        if (!awaitExit(STOP_TIMEOUT)) {
            killAndDetach();
            throw new IllegalStateException("forgetfs on " + mountPoint + " did not stop within "
                    + STOP_TIMEOUT.toSeconds() + " s; killed it and detached the mount; see " + logFile);
        }
        if (!ForgetfsMount.on(mountPoint).isEmpty()) {
            StaleMounts.detach(mountPoint);
        }
    }

    /** For a daemon that cannot be trusted any more: no rollback, and no mount left behind. */
    void killAndDetach() {
        process.destroyForcibly();
        awaitExit(STOP_TIMEOUT);
        if (!ForgetfsMount.on(mountPoint).isEmpty()) {
            StaleMounts.detach(mountPoint);
        }
    }

    private String ask(String command) {
        try {
            input.write((command + "\n").getBytes(StandardCharsets.US_ASCII));
            input.flush();
        } catch (IOException e) {
            return END;
        }
        return awaitLine();
    }

    private String awaitLine() {
        try {
            String line = lines.poll(ANSWER_TIMEOUT.toNanos(), TimeUnit.NANOSECONDS);
            return line == null ? "no answer within " + ANSWER_TIMEOUT.toSeconds() + " s" : line;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted while waiting for its answer";
        }
    }

    /** Why an answer is not the one expected, in one line that points to the log. */
    private String failure(String answer) {
        if (answer.startsWith("error ")) {
            return answer.substring("error ".length()) + "; see " + logFile;
        }
        if (answer.equals(END)) {
            String status = awaitExit(Duration.ofSeconds(5)) ? "exit status " + process.exitValue() : "still running";
            return "it ended its output (" + status + "); see " + logFile;
        }
        return answer + "; see " + logFile;
    }

    private boolean awaitExit(Duration timeout) {
        try {
            return process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !process.isAlive();
        }
    }

    private void readOutput() {
        try (BufferedReader out = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                lines.add(line);
            }
        } catch (IOException e) {
            // the pipe broke: the same as its end, which the waiting side reports
        } finally {
            lines.add(END);
        }
    }

    @Override
    public String toString() {
        return "forgetfs (pid " + pid() + ") on " + mountPoint;
    }
}
