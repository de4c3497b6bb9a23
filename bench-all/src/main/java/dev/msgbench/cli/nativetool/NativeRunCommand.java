package dev.msgbench.cli.nativetool;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;

import dev.msgbench.cli.Converters;
import dev.msgbench.cli.ExitCode;
import dev.msgbench.cli.Io;
import dev.msgbench.core.Setting;
import dev.msgbench.core.UserError;
import dev.msgbench.core.cpu.CpuAffinity;
import dev.msgbench.core.cpu.CpuList;
import dev.msgbench.core.system.NativeFigure;
import dev.msgbench.core.system.NativeRequest;
import dev.msgbench.core.system.NativeTool;
import dev.msgbench.core.system.TimeConverter;
import dev.msgbench.core.units.Durations;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        header = "Runs SYSTEM's native tool once and prints its figure: msgs_per_sec=RATE.",
        description = {"Runs SYSTEM's native tool once against the broker at --url and prints its figure on one line:",
                "  msgs_per_sec=RATE [publish_seconds=SECONDS]",
                "RATE as the tool printed it (after a warm-up, its steady-state figure); publish_seconds when the broker "
                        + "served more than the measured messages (a warm-up the tool sends first): the seconds all of "
                        + "its publishing took. Nothing, and exit 1, when the tool printed no figure: its log, in --logs, "
                        + "says why. The tool runs as a child process (several, where it needs a topic made first), "
                        + "each stopped at --timeout and on Ctrl+C.", ""},
        footer = {"", "Examples:",
                "  native-tool run redis --side publisher --size 100 --messages 20000 --url redis://127.0.0.1:6379",
                "  native-tool run kafka --side subscriber --size 1024 --messages 200000 --warmup-messages 100000 \\",
                "      --url 127.0.0.1:9092 --cpus 1"})
final class NativeRunCommand implements Callable<Integer> {

    private final Io io;

    @Spec
    CommandSpec spec;

    @Mixin
    SystemChoice choice = new SystemChoice();

    @Mixin
    RequestOptions options = new RequestOptions();

    @Option(names = "--logs", paramLabel = "DIR", defaultValue = "${java.io.tmpdir}/msgbench-native-tool",
            description = "Where each run's output goes: native-SIDE-SIZE-NAME.log, and a file beside it for each "
                    + "other step that writes one (default: ${DEFAULT-VALUE}).")
    Path logs;

    @Option(names = "--cpus", paramLabel = "LIST", converter = Converters.Cpus.class,
            description = "Run the load generator on these CPUs (taskset -c LIST): 1, 0-3, 0,2.")
    CpuList cpus;

    @Option(names = "--timeout", paramLabel = "TIME", defaultValue = "15m", converter = TimeConverter.class,
            description = "The longest one command of the run may take, e.g. a subscriber waiting for messages the "
                    + "broker dropped (default: ${DEFAULT-VALUE}).")
    Duration timeout;

    @Mixin
    ToolCache cache = new ToolCache();

    NativeRunCommand(Io io) {
        this.io = io;
    }

    @Override
    public Integer call() {
        NativeTool tool = choice.tool();
        String system = choice.name;
        NativeRequest request = options.request(tool);
        if (request.url() == null) {
            throw new ParameterException(spec.commandLine(), "--url is required: the broker to run against, as `broker "
                    + system + "` prints it");
        }
        if (timeout.isZero() || timeout.isNegative()) {
            throw new ParameterException(spec.commandLine(), "--timeout must be above 0, got "
                    + Durations.format(timeout));
        }
        String refused = tool.sideRefused(request.side());
        if (refused != null) {
            throw new UserError("--side " + request.side().name().toLowerCase(Locale.ROOT) + ": " + refused);
        }
        if (cpus != null) {
            CpuAffinity.requireTaskset(Setting.CPUS);
        }
        NativeTool.Prepared prepared = cache.prepare(system, tool, io);
        Path log = logs.resolve("native-" + request.side().shortName() + "-" + request.sizeBytes() + "-" + request.runName() + ".log");
        try {
            Files.createDirectories(logs);
        } catch (IOException e) {
            throw new UserError("--logs " + logs + ": cannot create it: " + e.getMessage());
        }
        Optional<NativeFigure> figure;
        try {
            figure = new NativeRunner(system, log, cpus, timeout, io.err()).run(prepared.run(request));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ExitCode.INTERRUPTED.code();
        }
        if (figure.isEmpty()) {
            io.err().println("native-tool: " + system + ": no figure in " + tool.name() + "'s output; see " + log);
            return ExitCode.RUN_FAILED.code();
        }
        io.out().println("msgs_per_sec=" + figure.get().msgsPerSec().toPlainString()
                + (figure.get().publishSeconds() == null ? "" : " publish_seconds=" + figure.get().publishSeconds().toPlainString()));
        return ExitCode.OK.code();
    }
}
