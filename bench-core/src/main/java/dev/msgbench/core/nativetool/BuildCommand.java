package dev.msgbench.core.nativetool;

import java.io.IOException;
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

    /** What a command prints on stdout, trimmed (go env GOPATH); empty when it fails. */
    public static String output(List<String> argv, Duration timeout) {
        try {
            Process process = new ProcessBuilder(argv).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            process.getOutputStream().close();
            String out = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                return "";
            }
            return process.exitValue() == 0 ? out.trim() : "";
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }
}
