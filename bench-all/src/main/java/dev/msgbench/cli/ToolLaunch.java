package dev.msgbench.cli;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** How to start this tool again in a child JVM (tune's cells, an isolated run's client host). */
public final class ToolLaunch {

    /** The tool's entry point, named rather than referred to, so that no command depends on {@link Main}. */
    static final String MAIN_CLASS = "dev.msgbench.cli.Main";

    private ToolLaunch() {
    }

    /** The same class path as this JVM's, and the entry point. */
    public static List<String> fromClassPath() {
        return List.of("-cp", System.getProperty("java.class.path"), MAIN_CLASS);
    }

    /** The same jar, or (in tests, from classes) the same class path. */
    public static List<String> fromJarOrClassPath() {
        try {
            Path source = Path.of(ToolLaunch.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (Files.isRegularFile(source) && source.toString().endsWith(".jar")) {
                return List.of("-jar", source.toString());
            }
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate this tool's classes", e);
        }
        return fromClassPath();
    }
}
