package dev.msgbench.redis.broker;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.msgbench.core.UserError;

/** Finds Debian's redis-server, or says how to get it. */
final class RedisBinary {

    static final String NAME = "redis-server";
    /** Where Debian installs it, for a PATH that lacks /usr/bin or /usr/sbin (cron, sudo). */
    private static final List<Path> FALLBACKS = List.of(Path.of("/usr/bin", NAME), Path.of("/usr/sbin", NAME));

    private RedisBinary() {
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
        String where = explicit != null ? explicit.toString() : NAME + " on the PATH, /usr/bin or /usr/sbin";
        throw new UserError("cannot find " + where + ": install it (apt-get install redis-server) "
                + "or pass --url to measure a running Redis");
    }
}
