package dev.msgbench.core.broker;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;

/**
 * What the {@link StaleReaper} needs to clean up after a JVM that died without running its
 * shutdown hooks: one file per started process, naming the process, its owner and its temp dir.
 *
 * <p>Start times are kept next to pids because pids are reused: a recorded pid whose start time
 * differs is somebody else's process.
 */
record ProcessMarker(String name, long pid, String startInstant, String commandLine,
                     long ownerPid, String ownerStartInstant, Path tempDir) {

    static final String SUFFIX = ".marker";

    ProcessMarker {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(startInstant, "startInstant");
        Objects.requireNonNull(commandLine, "commandLine");
        Objects.requireNonNull(ownerStartInstant, "ownerStartInstant");
    }

    /** java.io.tmpdir/msgbench-owned: shared by every msgbench JVM of this user. */
    static Path defaultDir() {
        return Path.of(System.getProperty("java.io.tmpdir"), "msgbench-owned");
    }

    /** A marker for {@code child}, owned by this JVM. */
    static ProcessMarker forChild(String name, ProcessHandle child, Path tempDir) {
        ProcessHandle owner = ProcessHandle.current();
        return new ProcessMarker(name, child.pid(), startOf(child), commandLineOf(child),
                owner.pid(), startOf(owner), tempDir);
    }

    /** Writes the marker atomically, so a reaper in another JVM never reads half a file. */
    Path write(Path dir) {
        Properties p = new Properties();
        p.setProperty("name", name);
        p.setProperty("pid", Long.toString(pid));
        p.setProperty("start", startInstant);
        p.setProperty("commandLine", commandLine);
        p.setProperty("ownerPid", Long.toString(ownerPid));
        p.setProperty("ownerStart", ownerStartInstant);
        if (tempDir != null) {
            p.setProperty("tempDir", tempDir.toString());
        }
        Path file = dir.resolve(ownerPid + "-" + pid + SUFFIX);
        try {
            Files.createDirectories(dir);
            Path partial = Files.createTempFile(dir, ownerPid + "-" + pid, ".partial");
            try (Writer out = Files.newBufferedWriter(partial, StandardCharsets.UTF_8)) {
                p.store(out, "msgbench: a process started by JVM " + ownerPid);
            }
            Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot record process " + pid + " in " + dir, e);
        }
    }

    static ProcessMarker read(Path file) throws IOException {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(in);
        }
        String tempDir = p.getProperty("tempDir");
        try {
            return new ProcessMarker(p.getProperty("name"), Long.parseLong(p.getProperty("pid")),
                    p.getProperty("start"), p.getProperty("commandLine"),
                    Long.parseLong(p.getProperty("ownerPid")), p.getProperty("ownerStart"),
                    tempDir == null ? null : Path.of(tempDir));
        } catch (RuntimeException e) {
            throw new IOException("malformed marker " + file + ": " + e.getMessage(), e);
        }
    }

    boolean ownerRunning() {
        return ProcessHandle.of(ownerPid).filter(h -> isSameProcess(h, ownerStartInstant)).isPresent();
    }

    /** The recorded process, if it still runs and is still the process we started. */
    Optional<ProcessHandle> runningChild() {
        return ProcessHandle.of(pid)
                .filter(h -> isSameProcess(h, startInstant))
                .filter(h -> commandLineOf(h).equals(commandLine));
    }

    private static boolean isSameProcess(ProcessHandle h, String recordedStart) {
        return ProcStat.isRunning(h) && startOf(h).equals(recordedStart);
    }

    private static String startOf(ProcessHandle h) {
        return h.info().startInstant().map(Instant::toString).orElse("");
    }

    private static String commandLineOf(ProcessHandle h) {
        return h.info().commandLine().orElse("");
    }
}
