package dev.msgbench.cli.nativetool;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.msgbench.core.system.NativeTool;
import dev.msgbench.core.system.SystemTarget;
import dev.msgbench.core.system.Systems;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** The native tools the systems on the class path bring, by --system name, in --system's order. */
final class NativeTools {

    private NativeTools() {
    }

    static Map<String, NativeTool> onClassPath() {
        Map<String, NativeTool> tools = new LinkedHashMap<>();
        for (SystemTarget target : Systems.create()) {
            target.nativeTool().ifPresent(tool -> tools.put(target.name(), tool));
        }
        return tools;
    }

    /** The tool of {@code system}, or a usage error listing the systems that have one. */
    static NativeTool of(String system, CommandSpec spec) {
        Map<String, NativeTool> tools = onClassPath();
        NativeTool tool = tools.get(system);
        if (tool == null) {
            throw new ParameterException(spec.commandLine(), "SYSTEM must be a system with a native tool: "
                    + String.join(", ", tools.keySet()) + "; got '" + system + "'");
        }
        return tool;
    }

    /** For SYSTEM's help: the systems that have a tool. */
    static final class Names implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return onClassPath().keySet().iterator();
        }
    }
}
