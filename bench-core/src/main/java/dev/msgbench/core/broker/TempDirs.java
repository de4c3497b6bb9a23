package dev.msgbench.core.broker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Temporary directories for broker data, all named {@value #PREFIX}... so they are easy to find. */
public final class TempDirs {

    public static final String PREFIX = "msgbench-";

    private TempDirs() {
    }

    /** Creates {@code java.io.tmpdir/msgbench-KIND-RANDOM}. */
    public static Path create(String kind) {
        return create(Path.of(System.getProperty("java.io.tmpdir")), kind);
    }

    /** Creates {@code parent/msgbench-KIND-RANDOM}. */
    public static Path create(Path parent, String kind) {
        try {
            return Files.createTempDirectory(parent, PREFIX + kind + "-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary directory in " + parent, e);
        }
    }

    /** Whether the stale reaper may delete {@code dir}: only directories this class named. */
    static boolean isOurs(Path dir) {
        Path name = dir.getFileName();
        return name != null && name.toString().startsWith(PREFIX);
    }

    /** Deletes {@code dir} and everything under it; a directory that is already gone is fine. */
    public static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try {
            FileTrees.walk(dir, Files::deleteIfExists, Files::deleteIfExists);
        } catch (NoSuchFileException e) {
            // removed concurrently (another reaper): the goal is reached
        } catch (DirectoryNotEmptyException e) {
            throw new UncheckedIOException("cannot delete " + dir + ": something still writes into it", e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }
}
