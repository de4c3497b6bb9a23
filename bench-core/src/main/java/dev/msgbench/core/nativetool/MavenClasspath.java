package dev.msgbench.core.nativetool;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import dev.msgbench.core.Phrase;
import dev.msgbench.core.Setting;
import dev.msgbench.core.UserError;

/**
 * A Java tool's class path, resolved once from Maven Central with a pom that the tool's module
 * carries as a resource (dependency:build-classpath), and kept in the cache: the tools are not
 * part of the build, and the suite's jar does not carry them.
 */
public final class MavenClasspath {

    /** A first resolution downloads the tool and its dependencies. */
    private static final Duration RESOLVE_TIMEOUT = Duration.ofMinutes(30);

    private MavenClasspath() {
    }

    /**
     * @param owner       the class whose module holds the pom
     * @param pomResource the pom, a resource next to {@code owner}
     * @param key         the cache's name for this tool and version, "kafka-tools-4.3.1"
     * @param properties  the pom's properties to set on Maven's command line (its version, when it
     *                    follows the suite's client)
     * @return the class path, as java -cp takes it
     */
    public static String resolve(Class<?> owner, String pomResource, String key, Map<String, String> properties,
                                 Path cacheDir, Consumer<String> progress) {
        Path file = cacheDir.resolve(key + ".classpath");
        try {
            if (Files.isRegularFile(file) && Files.size(file) > 0) {
                return Files.readString(file, StandardCharsets.UTF_8).trim();
            }
            Path project = cacheDir.resolve(key);
            Files.createDirectories(project);
            try (InputStream pom = owner.getResourceAsStream(pomResource)) {
                if (pom == null) {
                    throw new IllegalStateException(pomResource + " is missing beside " + owner.getName());
                }
                Files.write(project.resolve("pom.xml"), pom.readAllBytes());
            }
            progress.accept("resolving " + key + "'s class path from Maven Central (" + project.resolve("pom.xml") + ")");
            List<String> argv = new ArrayList<>(List.of("mvn", "-B", "-q", "dependency:build-classpath",
                    "-Dmdep.outputFile=" + file.toAbsolutePath()));
            properties.forEach((name, value) -> argv.add("-D" + name + "=" + value));
            Path log = cacheDir.resolve(key + ".mvn.log");
            if (BuildCommand.run(argv, project, log, RESOLVE_TIMEOUT) != 0 || !Files.isRegularFile(file)) {
                Files.deleteIfExists(file);
                throw new UserError("could not resolve " + key + " with Maven; see " + log);
            }
            return Files.readString(file, StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new UserError(Phrase.of("%s %s: cannot keep the tool there: %s", Setting.CACHE, cacheDir, e.getMessage()));
        }
    }

    /** How to run a class of the tool: this JVM's java, with the tool's class path. */
    public static List<String> java(String classpath) {
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", classpath);
    }
}
