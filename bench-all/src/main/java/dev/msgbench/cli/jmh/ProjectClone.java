package dev.msgbench.cli.jmh;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import dev.msgbench.core.UserError;

/**
 * The clone of the project that {@code tune --jmh} runs the JMH benchmarks from: they are test
 * sources, so no jar carries them and only a clone, with Maven, can build them.
 *
 * @param root the folder of the root pom.xml
 */
public record ProjectClone(Path root) {

    /**
     * What only the suite's root pom says: every module's pom names msgbench-parent as its parent,
     * and another project's pom above the jar must not be taken for it either.
     */
    static final String ROOT_MARK = "<module>bench-core</module>";

    /**
     * The clone at or above the working directory, else at or above this code's jar or classes
     * folder (a jar run from another directory).
     *
     * @throws UserError naming both places when neither is in a clone
     */
    public static ProjectClone locate(Path workingDir, Path codeLocation) {
        for (Path start : List.of(workingDir, codeLocation)) {
            for (Path dir = start.toAbsolutePath().normalize(); dir != null; dir = dir.getParent()) {
                if (isRoot(dir)) {
                    return new ProjectClone(dir);
                }
            }
        }
        throw new UserError("tune --jmh: no clone of msgbench at or above " + workingDir.toAbsolutePath().normalize()
                + " or " + codeLocation.toAbsolutePath().normalize() + " (no pom.xml with the module bench-core); the JMH "
                + "benchmarks are test sources: run tune --jmh inside a clone of the project");
    }

    /** Where this code was loaded from: bench-all.jar, or bench-all/target/classes in a build. */
    public static Path codeLocation() {
        try {
            return Path.of(ProjectClone.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("this code's location is not a path", e);
        }
    }

    static boolean isRoot(Path dir) {
        Path pom = dir.resolve("pom.xml");
        try {
            return Files.isRegularFile(pom) && Files.readString(pom).contains(ROOT_MARK);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + pom, e);
        }
    }

    /**
     * A module of the clone that holds JMH benchmarks in its test sources.
     *
     * @throws UserError naming --jmh-module when there is no such module with test sources
     */
    public Path module(String name) {
        Path module = root.resolve(name);
        if (name.contains("/") || !Files.isRegularFile(module.resolve("pom.xml"))
                || !Files.isDirectory(module.resolve("src/test/java"))) {
            throw new UserError("--jmh-module " + name + ": no such module with test sources in " + root
                    + "; give one of bench-core, bench-kafka, bench-nats, bench-rabbit, bench-redis");
        }
        return module;
    }
}
