package dev.msgbench.cli.nativetool;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;

import dev.msgbench.cli.ExitCode;
import dev.msgbench.cli.Io;
import dev.msgbench.core.system.NativeRun;
import dev.msgbench.core.system.NativeTool;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "prepare", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Gets SYSTEM's native tool once (fetched into --cache, built, or found installed), or says in one "
                + "line why it cannot and how to get it (exit 2). With --url, also readies that broker for the tool's "
                + "runs (Redis: lifts the pub/sub output limit, so that redis-cli is never disconnected).", ""},
        footer = {"", "Examples:", "  native-tool prepare kafka", "  native-tool prepare redis --url redis://127.0.0.1:6379"})
final class PrepareCommand implements Callable<Integer> {

    private final Io io;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SYSTEM", description = "One of ${COMPLETION-CANDIDATES}.",
            completionCandidates = NativeTools.Names.class)
    String system;

    @Option(names = "--url", paramLabel = "URL", description = "A broker to ready for the tool, as `broker SYSTEM` prints it.")
    String url;

    @Mixin
    ToolCache cache = new ToolCache();

    PrepareCommand(Io io) {
        this.io = io;
    }

    @Override
    public Integer call() throws InterruptedException {
        NativeTool tool = NativeTools.of(system, spec);
        NativeTool.Prepared prepared = cache.prepare(system, tool, io);
        if (url != null) {
            List<NativeRun.Step> steps = prepared.brokerSetup(url);
            NativeRunner runner = new NativeRunner(system, cache.dir().resolve(system + "-broker-setup.log"), null,
                    Duration.ofMinutes(1), io.err());
            if (!runner.runAll(steps)) {
                return ExitCode.RUN_FAILED.code();
            }
        }
        io.out().println(system + ": " + tool.name() + " ready (" + tool.origin() + ")");
        return ExitCode.OK.code();
    }
}
