package dev.msgbench.cli.nativetool;

import java.util.Map;
import java.util.stream.Collectors;

import dev.msgbench.cli.Io;
import dev.msgbench.core.system.NativeTool;
import picocli.CommandLine.Command;

@Command(name = "list", mixinStandardHelpOptions = true, header = "The systems with a native tool, and their knobs.",
        description = {"The systems that bring a native tool, one a line, tab-separated: the system, the tool, where it "
                + "comes from, and its knobs with their defaults (--knob NAME=VALUE) or -.", ""},
        footer = {"", "Example:", "  native-tool list | cut -f1      (the system names alone)"})
final class ListCommand implements Runnable {

    private final Io io;

    ListCommand(Io io) {
        this.io = io;
    }

    @Override
    public void run() {
        for (Map.Entry<String, NativeTool> entry : NativeTools.onClassPath().entrySet()) {
            NativeTool tool = entry.getValue();
            String knobs = tool.knobs().stream().map(k -> k.name() + "=" + k.defaultValue() + " (" + k.description() + ")")
                    .collect(Collectors.joining("; "));
            io.out().println(entry.getKey() + "\t" + tool.name() + "\t" + tool.origin() + "\t" + (knobs.isEmpty() ? "-" : knobs));
        }
    }
}
