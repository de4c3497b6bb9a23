package dev.msgbench.core.broker;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A Java main class to run in its own JVM, so a broker never shares the measuring JVM's heap,
 * GC pauses or JIT threads.
 *
 * <p>The child gets this JVM's java executable and, unless given a class path of its own
 * ({@link #withClassPath}: a broker's jars, {@link BrokerClasspath}), this JVM's class path, so it
 * works the same from the shaded bench-all jar and from a test class path. It runs under
 * {@link ParentWatchdog}, so it ends when this JVM dies, even by SIGKILL.
 *
 * @param name      how messages name the process, e.g. "kafka node 2"
 * @param mainClass the class whose {@code main} to run
 * @param jvmArgs   e.g. {@code -Xmx512m}
 * @param args      arguments for {@code main}
 * @param workDir   the working directory, or null for this JVM's
 * @param logFile   receives stdout and stderr, appended
 * @param tempDir   the directory to delete if the process is found orphaned, or null
 * @param classPath the child's class path, absolute; {@link ParentWatchdog} must be on it
 */
public record JavaChild(String name, String mainClass, List<String> jvmArgs, List<String> args,
                        Path workDir, Path logFile, Path tempDir, List<Path> classPath) {

    public JavaChild {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(mainClass, "mainClass");
        jvmArgs = List.copyOf(jvmArgs);
        args = List.copyOf(args);
        Objects.requireNonNull(logFile, "logFile");
        classPath = List.copyOf(classPath);
    }

    /** On this JVM's class path. */
    public JavaChild(String name, String mainClass, List<String> jvmArgs, List<String> args, Path workDir,
                     Path logFile, Path tempDir) {
        this(name, mainClass, jvmArgs, args, workDir, logFile, tempDir, thisClassPath());
    }

    /**
     * On {@code jars} instead of this JVM's class path, with the watchdog in front, alone in a jar
     * that this writes into {@link #tempDir} (once): the child sees none of the runner's classes.
     */
    public JavaChild withClassPath(List<Path> jars) {
        if (tempDir == null) {
            throw new IllegalStateException(name + " needs a temp dir for the watchdog's jar to run on a class path "
                    + "of its own");
        }
        List<Path> own = new ArrayList<>();
        own.add(WatchdogJar.writeTo(tempDir));
        jars.forEach(jar -> own.add(jar.toAbsolutePath()));
        return new JavaChild(name, mainClass, jvmArgs, args, workDir, logFile, tempDir, own);
    }

    public NativeCommand toCommand() {
        List<String> command = new ArrayList<>();
        command.add(javaExecutable());
        command.addAll(jvmArgs);
        command.add("-cp");
        command.add(classPath.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator)));
        command.add(ParentWatchdog.class.getName());
        command.add(Long.toString(ProcessHandle.current().pid()));
        command.add(mainClass);
        command.addAll(args);
        return new NativeCommand(name, command, Map.of(), workDir, logFile, tempDir).endingWithOwner();
    }

    public ManagedProcess start() {
        return toCommand().start();
    }

    public static String javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /*
     * Under surefire java.class.path is the full test class path even though surefire boots
     * through a manifest-only jar: the booter sets the property (the jar would work too; -cp
     * honours its Class-Path attribute). Surefire's value ends with ':', an empty entry that
     * would put the child's working directory on its class path; drop empty entries. Entries
     * are made absolute because the child runs in another working directory: `java -jar
     * bench-all/target/bench-all.jar` has a relative class path.
     */
    public static List<Path> thisClassPath() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !entry.isEmpty())
                .map(entry -> Path.of(entry).toAbsolutePath())
                .collect(Collectors.toList());
    }
}
