package dev.msgbench.core.broker;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * A walk over a directory tree that a running process may change meanwhile: an entry that
 * vanishes between the listing and the visit is skipped, as there is nothing left to act on.
 */
final class FileTrees {

    /** What is done to one entry. */
    @FunctionalInterface
    interface Action {
        void on(Path path) throws IOException;
    }

    private FileTrees() {
    }

    /**
     * Visits every entry under {@code root}, depth first.
     *
     * @param onFile         for each entry that is not a directory
     * @param afterDirectory for each directory, {@code root} included, once its entries are done
     */
    static void walk(Path root, Action onFile, Action afterDirectory) throws IOException {
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                onFile.on(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                if (e instanceof NoSuchFileException) {
                    return FileVisitResult.CONTINUE;
                }
                throw e;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                if (e != null && !(e instanceof NoSuchFileException)) {
                    throw e;
                }
                afterDirectory.on(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
