package dev.msgbench.cli.nativetool;

import dev.msgbench.core.system.NativeTool;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** SYSTEM, the first parameter of prepare, describe and run: a system whose module brings a native tool. */
final class SystemChoice {

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    @Parameters(index = "0", paramLabel = "SYSTEM", description = "One of ${COMPLETION-CANDIDATES}.",
            completionCandidates = NativeTools.Names.class)
    String name;

    /** Its tool, or a usage error listing the systems that have one. */
    NativeTool tool() {
        return NativeTools.of(name, command);
    }
}
