package dev.msgbench.core.broker;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.msgbench.core.cpu.CpuList;

/**
 * A program to start as a {@link ManagedProcess}, e.g. {@code nats-server} or {@code redis-server}.
 *
 * @param name     how messages name the process, e.g. "nats node 2"
 * @param command  the program and its arguments
 * @param env      variables added to (or replacing those of) this JVM's environment
 * @param workDir  the working directory, or null for this JVM's
 * @param logFile  receives stdout and stderr, appended
 * @param tempDir  the directory to delete if the process is found orphaned, or null
 * @param cpus     the CPUs the process and everything it starts may run on (--broker-cpus), or
 *                 null for those of this JVM
 * @param netns    the network namespace to run in (--isolate: {@code ip netns exec NAME}), or null
 *                 for this JVM's
 * @param endsWithOwner whether the program ends itself when this JVM dies (a {@link JavaChild},
 *                 under {@link ParentWatchdog}); else an {@link OwnerWatchdog} ends it
 */
public record NativeCommand(String name, List<String> command, Map<String, String> env,
                            Path workDir, Path logFile, Path tempDir, CpuList cpus, String netns,
                            boolean endsWithOwner) {

    public NativeCommand {
        Objects.requireNonNull(name, "name");
        command = List.copyOf(command);
        if (command.isEmpty()) {
            throw new IllegalArgumentException("command of " + name + " is empty");
        }
        env = Map.copyOf(env);
        Objects.requireNonNull(logFile, "logFile");
    }

    /** Ended by an {@link OwnerWatchdog} when this JVM dies. */
    public NativeCommand(String name, List<String> command, Map<String, String> env, Path workDir, Path logFile,
                         Path tempDir, CpuList cpus, String netns) {
        this(name, command, env, workDir, logFile, tempDir, cpus, netns, false);
    }

    /** In this JVM's network namespace. */
    public NativeCommand(String name, List<String> command, Map<String, String> env, Path workDir, Path logFile,
                         Path tempDir, CpuList cpus) {
        this(name, command, env, workDir, logFile, tempDir, cpus, null);
    }

    /** On this JVM's CPUs. */
    public NativeCommand(String name, List<String> command, Map<String, String> env, Path workDir, Path logFile,
                         Path tempDir) {
        this(name, command, env, workDir, logFile, tempDir, null);
    }

    /** The plain case: no extra environment, this JVM's working directory, no temp dir. */
    public static NativeCommand of(String name, Path logFile, String... command) {
        return new NativeCommand(name, List.of(command), Map.of(), null, logFile, null);
    }

    /** @param cpus the CPUs to run on, or null for this JVM's */
    public NativeCommand withCpus(CpuList cpus) {
        return new NativeCommand(name, command, env, workDir, logFile, tempDir, cpus, netns, endsWithOwner);
    }

    /** @param netns the network namespace to run in, or null for this JVM's */
    public NativeCommand withNetns(String netns) {
        return new NativeCommand(name, command, env, workDir, logFile, tempDir, cpus, netns, endsWithOwner);
    }

    /** A program that ends itself when this JVM dies: it needs no {@link OwnerWatchdog}. */
    NativeCommand endingWithOwner() {
        return new NativeCommand(name, command, env, workDir, logFile, tempDir, cpus, netns, true);
    }

    public ManagedProcess start() {
        return ManagedProcess.start(this, ProcessMarker.defaultDir());
    }
}
