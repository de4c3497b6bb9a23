package dev.msgbench.core.broker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Cleans up after msgbench JVMs that died without running their shutdown hooks: kills the
 * processes they started and deletes their temp dirs. Runs at every broker start.
 *
 * <p>A process is killed only when its owner is gone and its pid, start time and command line all
 * still match the marker, so a reused pid is never killed. Temp dirs are deleted only when their
 * name shows that {@link TempDirs} made them.
 */
public final class StaleReaper {

    private static final Duration KILL_WAIT = Duration.ofSeconds(10);

    private final Path markerDir;

    public StaleReaper(Path markerDir) {
        this.markerDir = markerDir;
    }

    /** Reaps what dead msgbench JVMs of this user left in java.io.tmpdir. */
    public static List<String> reapDefault() {
        return new StaleReaper(ProcessMarker.defaultDir()).reap();
    }

    /** @return the names and pids of the processes it killed, for a message */
    public List<String> reap() {
        if (!Files.isDirectory(markerDir)) {
            return List.of();
        }
        List<Path> markers;
        try (Stream<Path> files = Files.list(markerDir)) {
            markers = files.filter(f -> f.getFileName().toString().endsWith(ProcessMarker.SUFFIX))
                    .collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + markerDir, e);
        }
        List<String> killed = new ArrayList<>();
        for (Path file : markers) {
            ProcessMarker marker;
            try {
                marker = ProcessMarker.read(file);
            } catch (NoSuchFileException e) {
                continue; // its owner stopped it meanwhile
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file + "; delete it if no msgbench run is active", e);
            }
            if (marker.ownerRunning()) {
                continue;
            }
            marker.runningChild().ifPresent(child -> {
                kill(child);
                killed.add(marker.name() + " (pid " + marker.pid() + ")");
            });
            if (marker.tempDir() != null && TempDirs.isOurs(marker.tempDir())) {
                TempDirs.deleteRecursively(marker.tempDir());
            }
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot delete " + file, e);
            }
        }
        return killed;
    }

    /** KILL at once: the owner is gone, and its data is about to be deleted anyway. */
    private static void kill(ProcessHandle child) {
        List<ProcessHandle> tree = new ArrayList<>(child.descendants().collect(Collectors.toList()));
        tree.add(child);
        tree.forEach(ProcessHandle::destroyForcibly);
        long deadline = System.nanoTime() + KILL_WAIT.toNanos();
        while (tree.stream().anyMatch(ProcStat::isRunning)) {
            if (System.nanoTime() - deadline >= 0) {
                throw new IllegalStateException("stale process " + child.pid() + " survived SIGKILL");
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while killing stale process " + child.pid(), e);
            }
        }
    }
}
