package dev.msgbench.core.disk;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.msgbench.core.UserError;

/**
 * The forgetfs program (C, on libfuse 3): {@value #ENV} if set, else built from the source
 * that ships inside this jar into {@code ~/.cache/msgbench/forgetfs-HASH/}, once per version of
 * the source.
 *
 * <p>Built on first use rather than by {@code scripts/setup} into the source tree: the program
 * then always matches the code that drives it, {@code mvn clean} cannot remove it, and the
 * shaded jar needs no checkout next to it. It costs one gcc run (about a second) per source
 * version and machine; setup installs gcc and the headers.
 */
public final class ForgetfsProgram {

    /** Points to a forgetfs binary to use instead of building one. */
    public static final String ENV = "MSGBENCH_FORGETFS";
    static final String SOURCE = "forgetfs.c";
    static final Path FUSE_HEADER = Path.of("/usr/include/fuse3/fuse.h");
    private static final String SETUP_HINT = "run scripts/setup (it installs gcc, libc6-dev, libfuse3-dev and fuse3)";
    private static final long COMPILE_TIMEOUT_SECONDS = 120;

    private ForgetfsProgram() {
    }

    /**
     * The program to run, built if needed.
     *
     * @throws UserError naming what is missing when it cannot be built
     */
    public static Path find() {
        String override = System.getenv(ENV);
        if (override != null && !override.isBlank()) {
            Path path = Path.of(override);
            if (!Files.isExecutable(path)) {
                throw new UserError(ENV + "=" + override + " is not an executable file; point it to a forgetfs binary or unset it");
            }
            return path;
        }
        byte[] source = source();
        Path dir = Path.of(System.getProperty("user.home"), ".cache", "msgbench", "forgetfs-" + hash(source));
        Path program = dir.resolve("forgetfs");
        if (!Files.isExecutable(program)) {
            build(source, dir, program);
        }
        return program;
    }

    private static byte[] source() {
        try (InputStream in = ForgetfsProgram.class.getResourceAsStream(SOURCE)) {
            if (in == null) {
                throw new IllegalStateException(SOURCE + " is missing from the class path: the build is broken");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + SOURCE + " from the class path", e);
        }
    }

    private static String hash(byte[] source) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(source)).substring(0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /**
     * Compiles from and into temp files, then moves the program in place: two JVMs building at
     * once (bench-all's two test forks) each use their own files, and both succeed.
     */
    private static void build(byte[] source, Path dir, Path program) {
        if (!Files.isRegularFile(FUSE_HEADER)) {
            throw new UserError("the forgetful disk's program (forgetfs) is not built and cannot be: " + FUSE_HEADER
                    + " is missing (libfuse3-dev); " + SETUP_HINT);
        }
        Path src = null;
        Path partial = null;
        try {
            Files.createDirectories(dir);
            src = Files.createTempFile(dir, "forgetfs", ".c");
            Files.write(src, source);
            partial = Files.createTempFile(dir, "forgetfs", ".partial");
            Path log = Files.createTempFile(dir, "gcc", ".log");
            Process gcc = startGcc(partial, src, log);
            gcc.getOutputStream().close();
            if (!gcc.waitFor(COMPILE_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                gcc.destroyForcibly();
                throw new UserError("gcc did not build forgetfs within " + COMPILE_TIMEOUT_SECONDS + " s; see " + log);
            }
            if (gcc.exitValue() != 0) {
                throw new UserError("gcc could not build forgetfs (exit " + gcc.exitValue() + "); see " + log + "; "
                        + SETUP_HINT);
            }
            Files.delete(log);
            try {
                Files.move(partial, program, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(partial, program, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot build forgetfs in " + dir, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UserError("interrupted while building forgetfs in " + dir, e);
        } finally {
            deleteQuietly(src);
            deleteQuietly(partial);
        }
    }

    /** For temp files in a failure's cleanup: the failure is what to report. */
    private static void deleteQuietly(Path file) {
        if (file == null) {
            return;
        }
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // a stray temp file in the cache dir harms nothing; the build's own outcome is reported
        }
    }

    private static Process startGcc(Path output, Path source, Path log) {
        try {
            return new ProcessBuilder(List.of("gcc", "-O2", "-Wall", "-D_FILE_OFFSET_BITS=64",
                    "-I" + FUSE_HEADER.getParent(), "-o", output.toString(), source.toString(), "-lfuse3", "-lpthread"))
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
        } catch (IOException e) {
            throw new UserError("the forgetful disk's program (forgetfs) is not built and cannot be: gcc does not run ("
                    + e.getMessage() + "); " + SETUP_HINT, e);
        }
    }
}
