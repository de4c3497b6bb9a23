package dev.msgbench.cli.nativetool;

import dev.msgbench.cli.Io;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(name = "native-tool", mixinStandardHelpOptions = true, synopsisSubcommandLabel = "COMMAND",
        description = {
                "Each system's own load generator, as its module describes it: how to get it, how to run it for a "
                        + "publisher's or a subscriber's figure, and how to read that figure from what it prints.",
                "",
                "scripts/compare-native sets these figures beside ours: it asks `describe` for the settings that make "
                        + "our throughput match the tool (and what the pair compares), alternates `run` with our "
                        + "throughput, and takes medians. A system module brings its tool with its SystemTarget "
                        + "(nativeTool()), so a new system is compared with no change here or in the script.",
                ""},
        footer = {"", "Examples:",
                "  native-tool list",
                "  native-tool prepare kafka                      (resolves kafka-tools from Maven Central once)",
                "  native-tool describe redis --side publisher --size 100 --warmup-messages 3000000",
                "  native-tool run nats --side subscriber --size 1024 --messages 1000000 --url nats://127.0.0.1:4222",
                "",
                "Exit codes: 0 done, 1 the run gave no figure (its log says why), 2 bad input or a tool that cannot be "
                        + "had, 130 interrupted."})
public final class NativeToolCommand implements Runnable {

    @Spec
    CommandSpec spec;

    /** The command with its subcommands, printing through {@code io}. */
    public static CommandLine commandLine(Io io) {
        CommandLine cl = new CommandLine(new NativeToolCommand());
        cl.addSubcommand("list", new ListCommand(io));
        cl.addSubcommand("prepare", new PrepareCommand(io));
        cl.addSubcommand("describe", new DescribeCommand(io));
        cl.addSubcommand("run", new NativeRunCommand(io));
        return cl;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
