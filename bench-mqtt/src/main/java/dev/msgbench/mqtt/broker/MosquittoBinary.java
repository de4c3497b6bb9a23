package dev.msgbench.mqtt.broker;

import java.nio.file.Path;
import java.util.List;

import dev.msgbench.core.broker.InstalledBinary;

/** Finds Debian's mosquitto, or says how to get it. */
final class MosquittoBinary {

    static final String NAME = "mosquitto";
    /** Debian installs it in /usr/sbin, which a user's PATH may lack. */
    private static final InstalledBinary BINARY = new InstalledBinary(NAME,
            List.of(Path.of("/usr/sbin", NAME), Path.of("/usr/bin", NAME)), "on the PATH, /usr/sbin or /usr/bin",
            "install it (apt-get install mosquitto; the suite never uses its systemd service) or pass --url to "
                    + "measure a running MQTT broker");

    private MosquittoBinary() {
    }

    /**
     * @param explicit a program to use as is, or null to search
     * @param pathEnv  the PATH to search
     */
    static Path locate(Path explicit, String pathEnv) {
        return BINARY.locate(explicit, pathEnv);
    }

    /** Test seam: {@code fallbacks} instead of Debian's directories. */
    static Path locate(Path explicit, String pathEnv, List<Path> fallbacks) {
        return BINARY.withFallbacks(fallbacks).locate(explicit, pathEnv);
    }
}
