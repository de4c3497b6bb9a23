package dev.msgbench.cli.cell;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.msgbench.cli.ExitCode;
import dev.msgbench.cli.ToolLaunch;
import dev.msgbench.core.result.Redaction;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.result.RunResult;

/**
 * Runs a cell in a fresh JVM of its own, as tune needs: a JVM's flags take effect only when it
 * starts, and another JDK is another java. The child runs the cell's own command line, with its
 * output and the exit code it gives going into a log.
 *
 * <p>Across processes the child's result.json is the only channel back, so the outcome is read
 * from the file the child wrote; in one JVM, {@link InProcessCellRunner} hands it over in memory.
 */
public final class ChildJvmCellRunner implements CellRunner {

    private final Path java;
    private final List<String> jvmFlags;
    private final Path log;
    private final Duration timeout;

    /**
     * @param log     where the child's command line and everything it prints go
     * @param timeout longest the child may take before it is stopped (--child-timeout)
     */
    public ChildJvmCellRunner(Path java, List<String> jvmFlags, Path log, Duration timeout) {
        this.java = java;
        this.jvmFlags = List.copyOf(jvmFlags);
        this.log = log;
        this.timeout = timeout;
    }

    @Override
    public CellOutcome run(ParsedCell cell, Path outputDir) {
        List<String> command = new ArrayList<>();
        command.add(java.toString());
        command.addAll(jvmFlags);
        command.addAll(ToolLaunch.fromJarOrClassPath());
        command.addAll(cell.args());
        command.addAll(List.of("--output", outputDir.toString(), "--quiet"));
        try {
            return run(command, outputDir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run a child JVM: " + Redaction.redactUrl(String.join(" ", command)), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new CellOutcome(ExitCode.INTERRUPTED, null, "interrupted while the child ran");
        }
    }

    private CellOutcome run(List<String> command, Path outputDir) throws IOException, InterruptedException {
        // the child scrubs what it prints itself; its command line (a --url's password) is ours to hide
        Files.writeString(log, Redaction.redactUrl(String.join(" ", command)) + System.lineSeparator(), StandardCharsets.UTF_8);
        Process child = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        // Ctrl+C must not leave a child (and its broker) behind: the child's own hook stops its broker on TERM
        Thread stopChild = new Thread(child::destroy, "msgbench-tune-child-stop");
        Runtime.getRuntime().addShutdownHook(stopChild);
        int exit;
        try {
            if (!child.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                child.destroy();
                if (!child.waitFor(30, TimeUnit.SECONDS)) {
                    child.destroyForcibly().waitFor();
                }
                return new CellOutcome(ExitCode.RUN_FAILED, null,
                        "timed out after " + timeout.toSeconds() + " s (--child-timeout)");
            }
            exit = child.exitValue();
        } finally {
            child.destroy();
            Runtime.getRuntime().removeShutdownHook(stopChild);
        }
        if (!Files.isRegularFile(outputDir.resolve(ResultFiles.RESULT_JSON))) {
            return new CellOutcome(ExitCode.ofProcess(exit), null, "exit " + exit + ", no result.json: see " + log);
        }
        RunResult result = ResultFiles.readResult(outputDir);
        return new CellOutcome(ExitCode.ofProcess(exit), result, result.error());
    }
}
