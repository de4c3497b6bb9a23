package dev.msgbench.cli.nativetool;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;

import dev.msgbench.cli.ExitCode;
import dev.msgbench.cli.Io;
import dev.msgbench.core.system.NativeRun;
import dev.msgbench.core.system.NativeTool;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "prepare", mixinStandardHelpOptions = true, sortOptions = false,
        header = "Gets SYSTEM's native tool once, or says why it cannot; with --url, readies that broker for it.",
        description = {"Gets SYSTEM's native tool once (fetched into --cache, built, or found installed), or says in one "
                + "line why it cannot and how to get it (exit 2). With --url, also readies that broker for the tool's "
                + "runs (Redis: lifts the pub/sub output limit, so that redis-cli is never disconnected).", ""},
        footer = {"", "Examples:", "  native-tool prepare kafka", "  native-tool prepare redis --url redis://127.0.0.1:6379"})
final class PrepareCommand implements Callable<Integer> {

    /** A command against a running broker that answers at once, or not at all. */
    private static final Duration SETUP_TIMEOUT = Duration.ofMinutes(1);

    private final Io io;

    @Mixin
    SystemChoice choice = new SystemChoice();

    @Option(names = "--url", paramLabel = "URL", description = "A broker to ready for the tool, as `broker SYSTEM` prints it.")
    String url;

    @Mixin
    ToolCache cache = new ToolCache();

    PrepareCommand(Io io) {
        this.io = io;
    }

    @Override
    public Integer call() {
        NativeTool tool = choice.tool();
        String system = choice.name;
        NativeTool.Prepared prepared = cache.prepare(system, tool, io);
        try {
            if (url != null && !readyBroker(prepared.brokerSetup(url))) {
                return ExitCode.RUN_FAILED.code();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ExitCode.INTERRUPTED.code();
        }
        io.out().println(system + ": " + tool.name() + " ready (" + tool.origin() + ")");
        return ExitCode.OK.code();
    }

    /** Runs the broker's setup; a failure prints its last line, and the log is only for that. */
    private boolean readyBroker(List<NativeRun.Step> steps) throws InterruptedException {
        Path log;
        try {
            log = Files.createTempFile("msgbench-broker-setup", ".log");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            return new NativeRunner(choice.name, log, null, SETUP_TIMEOUT, io.err()).runAll(steps);
        } finally {
            try {
                Files.deleteIfExists(log);
            } catch (IOException e) {
                io.err().println("native-tool: could not remove " + log + ": " + e.getMessage());
            }
        }
    }
}
