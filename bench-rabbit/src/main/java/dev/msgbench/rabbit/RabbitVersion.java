package dev.msgbench.rabbit;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A RabbitMQ version as a broker reports it (3.10.8), compared with the release that brought a feature. */
final class RabbitVersion {

    private static final Pattern MAJOR_MINOR = Pattern.compile("^(\\d+)\\.(\\d+)");

    private RabbitVersion() {
    }

    /** True when {@code version} is known and older than {@code major.minor}; an unknown one is given the benefit. */
    static boolean before(String version, int major, int minor) {
        Matcher m = MAJOR_MINOR.matcher(version == null ? "" : version);
        if (!m.find()) {
            return false;
        }
        int hisMajor = Integer.parseInt(m.group(1));
        return hisMajor < major || hisMajor == major && Integer.parseInt(m.group(2)) < minor;
    }
}
