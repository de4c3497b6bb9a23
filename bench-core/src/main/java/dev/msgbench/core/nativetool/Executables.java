package dev.msgbench.core.nativetool;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Programs on the PATH, as the shell finds them. */
public final class Executables {

    private Executables() {
    }

    /** {@code name} in the first directory of this process's PATH that holds it, executable. */
    public static Optional<Path> onPath(String name) {
        return onPath(name, System.getenv("PATH"));
    }

    /** Test seam: {@code pathEnv} in place of PATH. */
    static Optional<Path> onPath(String name, String pathEnv) {
        if (pathEnv == null) {
            return Optional.empty();
        }
        for (String dir : pathEnv.split(File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(dir, name);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }
}
