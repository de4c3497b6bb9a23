package dev.msgbench.cli.jmh;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import dev.msgbench.core.cpu.CpuAffinity;
import dev.msgbench.core.cpu.CpuList;

/**
 * JMH's own runner on a built class path, once per JDK and flag set: the host JVM is this
 * tool's java with no flags of its own, and each benchmark's forks run on the set's java
 * ({@code -jvm}) with the set's flags appended ({@code -jvmArgsAppend}), so that what is
 * measured is the forks under those flags, with JMH's warm-up, iterations and error bars.
 *
 * @param include the benchmarks, JMH's regular expression
 * @param args    JMH's settings (forks, iterations, times), without what this class sets
 * @param cpus    where JMH and its forks run (taskset), or null for anywhere
 */
public record JmhLaunch(List<Path> classPath, String include, List<String> args, CpuList cpus) {

    /** JMH's options that tune sets itself, per flag set, and that --jmh-args may therefore not hold. */
    public static final List<String> OWN_OPTIONS = List.of("-jvm", "-jvmArgs", "-jvmArgsAppend", "-jvmArgsPrepend",
            "-rf", "-rff", "-o");

    private static final String PROGRESS = "# Run progress: ";
    private static final String BENCHMARK = "# Benchmark: ";
    private static final String PARAMETERS = "# Parameters: ";

    public JmhLaunch {
        classPath = List.copyOf(classPath);
        args = List.copyOf(args);
    }

    /** The outcome of one set's run: its scores, or why there are none. */
    public record Outcome(Map<String, JmhScore> scores, String error, boolean interrupted) {
    }

    /** The command line of one set's run, the host on the running java. */
    List<String> command(Path java, List<String> jvmFlags, Path resultJson) {
        List<String> command = new ArrayList<>();
        if (cpus != null) {
            command.addAll(CpuAffinity.prefix(cpus));
        }
        command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                String.join(File.pathSeparator, classPath.stream().map(Path::toString).toList()), "org.openjdk.jmh.Main",
                include));
        command.addAll(args);
        command.addAll(List.of("-jvm", java.toString()));
        if (!jvmFlags.isEmpty()) {
            // one argument: JMH splits it at spaces into the forks' flags
            command.addAll(List.of("-jvmArgsAppend", String.join(" ", jvmFlags)));
        }
        command.addAll(List.of("-prof", "gc", "-rf", "json", "-rff", resultJson.toString()));
        return command;
    }

    /**
     * Runs the benchmarks under {@code java} and {@code jvmFlags}, JMH's output into {@code log},
     * and for each benchmark it starts a line to {@code progress} with JMH's estimate of what is left.
     */
    public Outcome run(Path java, List<String> jvmFlags, Path resultJson, Path log, Duration timeout,
                       Consumer<String> progress) {
        List<String> command = command(java, jvmFlags, resultJson);
        String[] current = {"", ""};
        try {
            Files.deleteIfExists(resultJson);
            LoggedProcess.Ended ended = LoggedProcess.run(command, resultJson.getParent(), log, timeout, line -> {
                if (line.startsWith(BENCHMARK)) {
                    current[0] = JmhResults.shortName(line.substring(BENCHMARK.length()).trim());
                    current[1] = "";
                } else if (line.startsWith(PARAMETERS)) {
                    current[1] = " " + line.substring(PARAMETERS.length()).trim();
                } else if (line.startsWith(PROGRESS)) {
                    progress.accept(current[0] + current[1] + ": " + line.substring(PROGRESS.length()).trim());
                }
            });
            if (ended.timedOut()) {
                return new Outcome(Map.of(), "stopped after " + timeout.toSeconds() + " s (--child-timeout): see " + log,
                        false);
            }
            if (ended.exit() != 0 || !Files.isRegularFile(resultJson)) {
                return new Outcome(Map.of(), "JMH exit " + ended.exit() + ", no result: see " + log, false);
            }
            return new Outcome(JmhResults.read(resultJson), null, false);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome(Map.of(), "interrupted while JMH ran", true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run JMH: " + String.join(" ", command), e);
        }
    }
}
