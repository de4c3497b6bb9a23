package dev.msgbench.core.broker;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

/**
 * {@link ParentWatchdog}, the main class of every child JVM, alone in a jar: the first entry of a
 * class path that is not this JVM's ({@link JavaChild#withClassPath}), so a broker on its own jars
 * still ends with its owner, and sees none of the runner's classes but these two.
 */
final class WatchdogJar {

    static final String FILE_NAME = "msgbench-watchdog.jar";
    /** The watchdog and every class of ours it loads; a test runs a child on this jar alone. */
    private static final List<Class<?>> CLASSES = List.of(ParentWatchdog.class, ProcStat.class);

    private WatchdogJar() {
    }

    /**
     * Writes {@code dir/}{@value #FILE_NAME}, unless it is there, and returns it. Made from this
     * JVM's own classes, so the watchdog is always this build's, wherever the classes come from
     * (bench-all.jar, bench-core/target/classes).
     */
    static Path writeTo(Path dir) {
        Path jar = dir.resolve(FILE_NAME);
        if (Files.isRegularFile(jar)) {
            return jar;
        }
        try {
            Files.createDirectories(dir);
            // whole or not at all: a child started meanwhile must never find half a jar
            Path part = Files.createTempFile(dir, FILE_NAME, ".part");
            try (OutputStream file = Files.newOutputStream(part); JarOutputStream out = new JarOutputStream(file)) {
                for (Class<?> type : CLASSES) {
                    out.putNextEntry(new JarEntry(type.getName().replace('.', '/') + ".class"));
                    try (InputStream in = type.getResourceAsStream(type.getSimpleName() + ".class")) {
                        if (in == null) {
                            throw new IllegalStateException(type.getName() + "'s class file is not on the class path");
                        }
                        in.transferTo(out);
                    }
                    out.closeEntry();
                }
            }
            Files.move(part, jar, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return jar;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + jar, e);
        }
    }
}
