package dev.msgbench.core.net;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.msgbench.core.Phrase;
import dev.msgbench.core.Setting;
import dev.msgbench.core.UserError;

/**
 * Runs one iproute2 command ({@code ip}, {@code tc}) to its end, with a timeout. Output goes to
 * files, not pipes: a command never blocks on a full pipe we are not reading yet.
 */
final class NetCommand {

    static final Duration TIMEOUT = Duration.ofSeconds(20);

    /** @param exitStatus null when the command was killed after its timeout */
    record Result(List<String> command, Integer exitStatus, String stdout, String stderr) {
        boolean ok() {
            return exitStatus != null && exitStatus == 0;
        }

        String commandText() {
            return String.join(" ", command);
        }

        /** What went wrong, in one line: the command and its stderr (or that it hung). */
        String failure() {
            String why = exitStatus == null ? "no answer within " + TIMEOUT.toSeconds() + " s"
                    : stderr.isBlank() ? "exit status " + exitStatus : oneLine(stderr);
            return "'" + commandText() + "' failed: " + why;
        }
    }

    private NetCommand() {
    }

    /** Runs {@code command}; a failure is a one-line {@link UserError} naming it and its stderr. */
    static String run(String... command) {
        Result result = attempt(command);
        if (!result.ok()) {
            throw new UserError(result.failure());
        }
        return result.stdout();
    }

    /** Runs {@code command} and returns how it went, failed or not. */
    static Result attempt(String... command) {
        List<String> argv = List.of(command);
        Path out = null;
        Path err = null;
        try {
            out = Files.createTempFile("msgbench-net", ".out");
            err = Files.createTempFile("msgbench-net", ".err");
            Process process = new ProcessBuilder(argv)
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            Integer status;
            try {
                status = process.waitFor(TIMEOUT.toNanos(), TimeUnit.NANOSECONDS) ? process.exitValue() : null;
            } catch (InterruptedException e) {
                // the namespaces must still be made or removed whole: finish this one command first
                Thread.currentThread().interrupt();
                status = process.waitFor(TIMEOUT.toNanos(), TimeUnit.NANOSECONDS) ? process.exitValue() : null;
            }
            if (status == null) {
                process.destroyForcibly();
            }
            return new Result(argv, status, Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UserError(Phrase.of("cannot run '%s': %s; %s needs iproute2 (ip, tc)", String.join(" ", argv),
                    oneLine(e.getMessage()), Setting.ISOLATE), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(argv, null, "", "interrupted");
        } finally {
            delete(out);
            delete(err);
        }
    }

    private static void delete(Path file) {
        if (file == null) {
            return;
        }
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + file, e);
        }
    }

    static String oneLine(String text) {
        return text == null ? "" : text.strip().replaceAll("\\s*\\R\\s*", " ");
    }
}
