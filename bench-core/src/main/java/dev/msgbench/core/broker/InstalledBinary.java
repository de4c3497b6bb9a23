package dev.msgbench.core.broker;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.msgbench.core.UserError;

/**
 * A broker's program from the system's packages, found on the PATH or where the package installs
 * it, or a one-line error saying how to get it.
 *
 * @param name      the program's file name (redis-server, mosquitto)
 * @param fallbacks where the package installs it, for a PATH that lacks those directories (cron,
 *                  sudo, a user's shell without the sbin directories)
 * @param searched  where it was looked for, as the error says it ("on the PATH, /usr/bin or /usr/sbin")
 * @param install   how to get it, as the error says it ("install it (apt-get install redis-server) or ...")
 */
public record InstalledBinary(String name, List<Path> fallbacks, String searched, String install) {

    public InstalledBinary {
        fallbacks = List.copyOf(fallbacks);
    }

    /**
     * @param explicit a program to use as is, or null to search
     * @param pathEnv  the PATH to search
     * @throws UserError when it is not there, or not executable
     */
    public Path locate(Path explicit, String pathEnv) {
        List<Path> candidates = new ArrayList<>();
        if (explicit != null) {
            candidates.add(explicit);
        } else {
            if (pathEnv != null) {
                for (String dir : pathEnv.split(File.pathSeparator)) {
                    if (!dir.isEmpty()) {
                        candidates.add(Path.of(dir, name));
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
        String where = explicit != null ? explicit.toString() : name + " " + searched;
        throw new UserError("cannot find " + where + ": " + install);
    }

    /** The same program looked for in {@code otherFallbacks} instead (a test seam). */
    public InstalledBinary withFallbacks(List<Path> otherFallbacks) {
        return new InstalledBinary(name, otherFallbacks, searched, install);
    }
}
