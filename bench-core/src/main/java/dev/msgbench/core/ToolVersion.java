package dev.msgbench.core;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The suite's own version, as the build stamped it. */
public final class ToolVersion {

    public static final String NAME = "msgbench";

    private static final String VERSION = load();

    private ToolVersion() {
    }

    public static String version() {
        return VERSION;
    }

    private static String load() {
        try (InputStream in = ToolVersion.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties props = new Properties();
            props.load(in);
            return props.getProperty("version", "unknown");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
