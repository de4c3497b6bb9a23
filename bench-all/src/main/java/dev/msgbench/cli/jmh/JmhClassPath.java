package dev.msgbench.cli.jmh;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.InstalledBinary;

/**
 * The class path JMH runs a module's benchmarks on, built once per tune by Maven: the module's
 * test sources compiled (JMH's annotation processor writes the benchmark list there), its test
 * and main classes and every dependency of the test scope. JMH then runs from it directly, once
 * per flag set, with each set's java and flags passed as separate arguments; the bench profile's
 * exec plugin would take them through one Maven property and a command-line string, and would
 * write into jmh-results/ where the committed baselines are.
 */
public final class JmhClassPath {

    static final InstalledBinary MAVEN = new InstalledBinary("mvn", List.of(Path.of("/usr/bin/mvn")),
            "on the PATH or /usr/bin", "tune --jmh builds the benchmarks' test class path with Maven; install it "
            + "(apt-get install maven) or run tune without --jmh");

    private JmhClassPath() {
    }

    /** Maven, found before anything runs. */
    public static Path maven() {
        return MAVEN.locate(null, System.getenv("PATH"));
    }

    /** The Maven command that compiles {@code module}'s test sources and lists its test class path into {@code listFile}. */
    static List<String> command(Path maven, ProjectClone clone, String module, Path listFile) {
        // -am: a system module's benchmarks need bench-core's classes and test jar from this clone, not ~/.m2;
        // each module of the reactor writes the list in turn, the benchmarks' module last
        return List.of(maven.toString(), "-B", "-o", "-q", "-f", clone.root().resolve("pom.xml").toString(),
                "-pl", module, "-am", "test-compile", "dependency:build-classpath", "-Dmdep.includeScope=test",
                "-Dmdep.outputFile=" + listFile);
    }

    /**
     * Runs Maven (offline: the clone's build has fetched everything) and returns the class path.
     *
     * @throws UserError naming the log when Maven fails
     */
    public static List<Path> build(Path maven, ProjectClone clone, String module, Path workDir, Duration timeout)
            throws InterruptedException {
        Path listFile = workDir.resolve("jmh-classpath.txt");
        Path log = workDir.resolve("jmh-build.log");
        List<String> command = command(maven, clone, module, listFile);
        try {
            LoggedProcess.Ended ended = LoggedProcess.run(command, clone.root(), log, timeout, line -> { });
            if (ended.timedOut() || ended.exit() != 0 || !Files.isRegularFile(listFile)) {
                throw new UserError("tune --jmh: Maven could not build " + module + "'s test class path ("
                        + (ended.timedOut() ? "stopped after " + timeout.toSeconds() + " s" : "exit " + ended.exit())
                        + "): see " + log + "; build the clone once online (mvn -B -DskipTests package) if a "
                        + "dependency is missing");
            }
            Path moduleDir = clone.module(module);
            List<Path> path = new ArrayList<>(List.of(moduleDir.resolve("target/test-classes"),
                    moduleDir.resolve("target/classes")));
            for (String entry : Files.readString(listFile).trim().split(java.io.File.pathSeparator)) {
                if (!entry.isBlank()) {
                    path.add(Path.of(entry));
                }
            }
            return path;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + String.join(" ", command), e);
        }
    }
}
