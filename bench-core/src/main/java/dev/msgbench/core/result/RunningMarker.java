package dev.msgbench.core.result;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * The RUNNING file of a results folder: written when a run starts, deleted once its
 * result.json is written. A folder that still holds it after its process is gone is the folder of
 * a run killed (SIGKILL, a crash, the machine going down) before it finished: its latency.hlog
 * holds what was measured up to then, and nothing else in it can be trusted as complete.
 *
 * <p>The process's start time is kept beside its pid because pids are reused: a recorded pid
 * whose start time differs is another process, and the run that wrote the folder is gone.
 *
 * @param startedAt when the run started (ISO-8601)
 */
public record RunningMarker(long pid, String processStart, String startedAt) {

    public static final String FILE_NAME = "RUNNING";

    /** Marks {@code dir} as being written by this JVM; atomically, so a reader never sees half a marker. */
    public static RunningMarker write(Path dir) {
        ProcessHandle self = ProcessHandle.current();
        RunningMarker marker = new RunningMarker(self.pid(), startOf(self), Instant.now().toString());
        Properties p = new Properties();
        p.setProperty("pid", Long.toString(marker.pid));
        p.setProperty("processStart", marker.processStart);
        p.setProperty("startedAt", marker.startedAt);
        try {
            Files.createDirectories(dir);
            Path partial = Files.createTempFile(dir, FILE_NAME, ".partial");
            try (Writer out = Files.newBufferedWriter(partial, StandardCharsets.UTF_8)) {
                p.store(out, "msgbench: a run writes this folder; deleted when its result.json is written");
            }
            Files.move(partial, dir.resolve(FILE_NAME), StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
            return marker;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + dir.resolve(FILE_NAME), e);
        }
    }

    /** The marker in {@code dir}, if there is one; a marker that cannot be parsed counts as one of pid 0. */
    public static Optional<RunningMarker> read(Path dir) {
        Path file = dir.resolve(FILE_NAME);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(in);
            return Optional.of(new RunningMarker(Long.parseLong(p.getProperty("pid", "0").trim()),
                    p.getProperty("processStart", ""), p.getProperty("startedAt", "")));
        } catch (NumberFormatException e) {
            // written by hand or cut short by a full disk: still a run that did not finish
            return Optional.of(new RunningMarker(0, "", ""));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /**
     * The first folder at most {@code maxDepth} levels below {@code dir} (or {@code dir} itself)
     * holding a marker: a workload's run keeps its cells' folders below its own.
     */
    public static Optional<Path> findBelow(Path dir, int maxDepth) {
        try (Stream<Path> files = Files.walk(dir, maxDepth)) {
            return files.filter(p -> p.getFileName().toString().equals(FILE_NAME) && Files.isRegularFile(p))
                    .map(Path::getParent).sorted().findFirst();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
    }

    /** Deletes the marker: the run's result is written (or it ended without one, but was not killed). */
    public static void delete(Path dir) {
        try {
            Files.deleteIfExists(dir.resolve(FILE_NAME));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir.resolve(FILE_NAME), e);
        }
    }

    /** Whether the process that wrote the marker still runs (then the folder is in use, not abandoned). */
    public boolean stillRunning() {
        return pid > 0 && ProcessHandle.of(pid).filter(h -> startOf(h).equals(processStart)).isPresent();
    }

    /** What a reader of the folder is told, for the user; the caller adds the next step. */
    public String describe(Path dir) {
        if (stillRunning()) {
            return dir + " is being written by a run still going (pid " + pid + ", started " + startedAt + ")";
        }
        return "incomplete: the run that wrote " + dir + " was killed (pid " + pid + ") before it finished";
    }

    private static String startOf(ProcessHandle h) {
        return h.info().startInstant().map(Instant::toString).orElse("");
    }
}
