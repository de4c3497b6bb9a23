package dev.msgbench.core.nativetool;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.msgbench.core.UserError;

/**
 * A command that fetches or builds a tool (mvn, go install): run to its end in a directory, its
 * output to a log that the error names, so that a failure is one line and the details a file away.
 */
public final class BuildCommand {

    private BuildCommand() {
    }

    /**
     * @return the command's exit status
     * @throws UserError when the program cannot be started, or does not end within {@code timeout}
     */
    public static int run(List<String> argv, Path dir, Path log, Duration timeout) {
        ProcessBuilder builder = new ProcessBuilder(argv).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.to(log.toFile()));
        if (dir != null) {
            builder.directory(dir.toFile());
        }
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new UserError("cannot run " + argv.get(0) + ": " + e.getMessage());
        }
        try {
            process.getOutputStream().close();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new UserError(String.join(" ", argv) + " did not end within " + timeout.toMinutes() + " min; see " + log);
            }
            return process.exitValue();
        } catch (IOException e) {
            throw new UserError("cannot run " + argv.get(0) + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UserError("interrupted while running " + argv.get(0));
        } finally {
            if (process.isAlive()) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
            }
        }
    }

    /** What a command prints on stdout, trimmed (go env GOPATH); empty when it fails or does not end within {@code timeout}. */
    public static String output(List<String> argv, Duration timeout) {
        Path out = null;
        try {
            out = Files.createTempFile("msgbench-command", ".out");
            Process process = new ProcessBuilder(argv).redirectError(ProcessBuilder.Redirect.DISCARD)
                    .redirectOutput(out.toFile()).start();
            process.getOutputStream().close();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                return "";
            }
            return process.exitValue() == 0 ? Files.readString(out, StandardCharsets.UTF_8).trim() : "";
        } catch (IOException e) {
            // a program that cannot run has nothing to say: the caller's answer is "not there"
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        } finally {
            if (out != null) {
                try {
                    Files.deleteIfExists(out);
                } catch (IOException e) {
                    // a temp file left in the temp dir: nothing the caller could do about it
                }
            }
        }
    }
}
