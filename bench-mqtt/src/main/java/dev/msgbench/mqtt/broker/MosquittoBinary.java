package dev.msgbench.mqtt.broker;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.msgbench.core.UserError;

/** Finds Debian's mosquitto, or says how to get it. */
final class MosquittoBinary {

    static final String NAME = "mosquitto";
    /** Where Debian installs it (/usr/sbin), for a PATH that lacks the sbin directories (cron, a user's shell). */
    private static final List<Path> FALLBACKS = List.of(Path.of("/usr/sbin", NAME), Path.of("/usr/bin", NAME));

    private MosquittoBinary() {
    }

    /**
     * @param explicit a program to use as is, or null to search
     * @param pathEnv  the PATH to search
     */
    static Path locate(Path explicit, String pathEnv) {
        return locate(explicit, pathEnv, FALLBACKS);
    }

    /** Test seam: {@code fallbacks} instead of Debian's directories. */
    static Path locate(Path explicit, String pathEnv, List<Path> fallbacks) {
        List<Path> candidates = new ArrayList<>();
        if (explicit != null) {
            candidates.add(explicit);
        } else {
            if (pathEnv != null) {
                for (String dir : pathEnv.split(File.pathSeparator)) {
                    if (!dir.isEmpty()) {
                        candidates.add(Path.of(dir, NAME));
                    }
                }
            }
            candidates.addAll(fallbacks);
        }
        for (Path candidate : candidates) {
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        String where = explicit != null ? explicit.toString() : NAME + " on the PATH, /usr/sbin or /usr/bin";
        throw new UserError("cannot find " + where + ": install it (apt-get install mosquitto; the suite never uses "
                + "its systemd service) or pass --url to measure a running MQTT broker");
    }
}
