package dev.msgbench.redis.broker;

import java.nio.file.Path;
import java.util.List;

import dev.msgbench.core.broker.InstalledBinary;

/** Finds Debian's redis-server, or says how to get it. */
final class RedisBinary {

    static final String NAME = "redis-server";
    /** Where Debian installs it, for a PATH that lacks /usr/bin or /usr/sbin (cron, sudo). */
    private static final InstalledBinary BINARY = new InstalledBinary(NAME,
            List.of(Path.of("/usr/bin", NAME), Path.of("/usr/sbin", NAME)), "on the PATH, /usr/bin or /usr/sbin",
            "install it (apt-get install redis-server) or pass --url to measure a running Redis");

    private RedisBinary() {
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
