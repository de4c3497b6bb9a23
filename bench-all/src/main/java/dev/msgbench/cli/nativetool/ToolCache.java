package dev.msgbench.cli.nativetool;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.msgbench.cli.Io;
import dev.msgbench.core.UserError;
import dev.msgbench.core.system.NativeTool;
import picocli.CommandLine.Option;

/** --cache: where fetched and built tools are kept between runs. */
final class ToolCache {

    @Option(names = "--cache", paramLabel = "DIR", defaultValue = "${user.home}/.cache/msgbench/native-tools",
            description = "Where fetched tools are kept (default: ${DEFAULT-VALUE}).")
    Path dir;

    /** The tool at hand; a tool that cannot be had is one line naming the system. */
    NativeTool.Prepared prepare(String system, NativeTool tool, Io io) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UserError("--cache " + dir + ": cannot create it: " + e.getMessage());
        }
        try {
            return tool.prepare(dir, line -> io.err().println("native-tool: " + system + ": " + line));
        } catch (UserError e) {
            throw new UserError(system + ": " + e.getMessage(), e);
        }
    }
}
