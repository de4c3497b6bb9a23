package dev.msgbench.core.broker;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A program to start as a {@link ManagedProcess}, e.g. {@code nats-server} or {@code redis-server}.
 *
 * @param name     how messages name the process, e.g. "nats node 2"
 * @param command  the program and its arguments
 * @param env      variables added to (or replacing those of) this JVM's environment
 * @param workDir  the working directory, or null for this JVM's
 * @param logFile  receives stdout and stderr, appended
 * @param tempDir  the directory to delete if the process is found orphaned, or null
 */
public record NativeCommand(String name, List<String> command, Map<String, String> env,
                            Path workDir, Path logFile, Path tempDir) {

    public NativeCommand {
        Objects.requireNonNull(name, "name");
        command = List.copyOf(command);
        if (command.isEmpty()) {
            throw new IllegalArgumentException("command of " + name + " is empty");
        }
        env = Map.copyOf(env);
        Objects.requireNonNull(logFile, "logFile");
    }

    /** The plain case: no extra environment, this JVM's working directory, no temp dir. */
    public static NativeCommand of(String name, Path logFile, String... command) {
        return new NativeCommand(name, List.of(command), Map.of(), null, logFile, null);
    }

    public ManagedProcess start() {
        return ManagedProcess.start(this, ProcessMarker.defaultDir());
    }
}
