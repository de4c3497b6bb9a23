package dev.msgbench.cli.tune;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.msgbench.core.UserError;

/**
 * A JDK to run the load generator on: its home and its feature version, read from the
 * {@code release} file every JDK ships, so that flags can be matched to versions without
 * starting a JVM.
 */
public record Jdk(Path home, int feature) {

    private static final Pattern VERSION = Pattern.compile("(?m)^JAVA_VERSION=\"(\\d+)");

    /** The label in tables: "jdk17". */
    public String label() {
        return "jdk" + feature;
    }

    public Path java() {
        return home.resolve("bin").resolve("java");
    }

    /** The JDK running this command. */
    public static Jdk current() {
        return new Jdk(Path.of(System.getProperty("java.home")), Runtime.version().feature());
    }

    /**
     * A JDK given on the command line: its home, or its bin/java.
     *
     * @throws UserError naming --jdk when the path is not a JDK
     */
    public static Jdk at(Path given) {
        Path home = given.endsWith(Path.of("bin", "java")) ? given.getParent().getParent() : given;
        Path release = home.resolve("release");
        if (!Files.isExecutable(home.resolve("bin").resolve("java")) || !Files.isRegularFile(release)) {
            throw new UserError("--jdk " + given + ": not a JDK (needs bin/java and a release file); give a JDK's home folder");
        }
        try {
            Matcher m = VERSION.matcher(Files.readString(release));
            if (!m.find()) {
                throw new UserError("--jdk " + given + ": " + release + " has no JAVA_VERSION; give a JDK's home folder");
            }
            int feature = Integer.parseInt(m.group(1));
            // "1.8.0" style versions predate this tool's minimum anyway
            return new Jdk(home, feature == 1 ? 8 : feature);
        } catch (IOException e) {
            throw new UserError("--jdk " + given + ": cannot read " + release + ": " + e.getMessage());
        }
    }
}
