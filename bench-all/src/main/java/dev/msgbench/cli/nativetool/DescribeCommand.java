package dev.msgbench.cli.nativetool;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import dev.msgbench.cli.ExitCode;
import dev.msgbench.cli.Io;
import dev.msgbench.core.system.NativeRequest;
import dev.msgbench.core.system.NativeTool;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "describe", mixinStandardHelpOptions = true, sortOptions = false,
        header = "What one side of a comparison runs: the count, our matching flags, what is compared.",
        description = {"What a comparison of SYSTEM's side runs, one NAME=VALUE a line, for scripts:",
                "  messages=N         the measured count (--messages, or the tool's default for the size)",
                "  warmup=N           the warm-up both sides leave out (0 where the tool cannot)",
                "  comparable=BOOL    false where the tool has no such figure (then compared says why)",
                "  compared=TEXT      which figure of the tool is set beside which of ours",
                "  ours=ARG           our throughput's flags that match the tool's, an argument a line",
                "  ours_listener=ARG  with --url: what listens while ours runs, an argument a line",
                ""},
        footer = {"", "Example:", "  native-tool describe kafka --side subscriber --size 1024 --warmup-messages 3000000"})
final class DescribeCommand implements Callable<Integer> {

    private final Io io;

    @Mixin
    SystemChoice choice = new SystemChoice();

    @Mixin
    RequestOptions options = new RequestOptions();

    DescribeCommand(Io io) {
        this.io = io;
    }

    @Override
    public Integer call() {
        NativeTool tool = choice.tool();
        NativeRequest request = options.request(tool);
        String refused = tool.sideRefused(request.side());
        // every line made before the first is printed, so that a refused knob prints nothing else
        List<String> lines = new ArrayList<>(List.of("messages=" + request.messages(), "warmup=" + request.warmupMessages(),
                "comparable=" + (refused == null), "compared=" + (refused != null ? "n/a: " + refused : compared(tool, request))));
        if (refused == null) {
            tool.matchingFlags(request).forEach(arg -> lines.add("ours=" + arg));
            if (request.url() != null) {
                tool.oursListener(request).forEach(arg -> lines.add("ours_listener=" + arg));
            }
        }
        lines.forEach(io.out()::println);
        return ExitCode.OK.code();
    }

    /** The tool's sentence, and how the warm-up is left out when there is one. */
    static String compared(NativeTool tool, NativeRequest request) {
        String text = tool.compared(request);
        if (request.warmupMessages() == 0) {
            return text;
        }
        return text + "; after a warm-up of " + request.warmupMessages()
                + " messages (ours: two runs of their own before, half each" + tool.warmupNote(request) + ")";
    }
}
