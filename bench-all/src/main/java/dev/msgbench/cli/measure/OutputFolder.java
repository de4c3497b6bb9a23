package dev.msgbench.cli.measure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import dev.msgbench.core.result.FileNotWritten;
import dev.msgbench.core.result.IntervalLog;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.result.RunningMarker;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * The checks of a results folder before anything starts, so that no broker is started for a
 * run that cannot keep its result and no earlier result is silently overwritten: the folder is
 * new or empty (or the user said --force), no run is writing it, and it can be written.
 */
public final class OutputFolder {

    /** As deep as a workload's run keeps its runs: OUTPUT/cell/rep-n. */
    private static final int MARKER_DEPTH = 3;

    private OutputFolder() {
    }

    /**
     * Refuses a folder that holds files, a file where the folder should be, and a folder a run
     * still writes. With {@code force} the files a run writes are deleted first (others are
     * left), so none of the old run's is mistaken for the new one's.
     *
     * @param offerForce whether the command has --force, so the error can offer it
     * @param force      whether --force was given
     */
    public static void requireUnused(CommandLine cl, Path dir, boolean offerForce, boolean force) {
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new ParameterException(cl, "--output " + dir + " is a file, not a folder");
        }
        if (!Files.isDirectory(dir)) {
            return;
        }
        String orForce = !offerForce ? "" : ", or --force to write over it";
        // a workload's run keeps its cells' folders below its own
        Optional<Path> marked = RunningMarker.findBelow(dir, MARKER_DEPTH);
        if (marked.isPresent()) {
            RunningMarker marker = RunningMarker.read(marked.get()).orElseThrow();
            if (marker.stillRunning()) {
                throw new ParameterException(cl, marker.describe(marked.get()) + "; give another --output");
            }
            if (!force || !marked.get().equals(dir)) {
                throw new ParameterException(cl, marker.describe(marked.get()) + "; give another --output"
                        + (marked.get().equals(dir) ? orForce : ""));
            }
        } else if (holdsFiles(cl, dir) && !force) {
            throw new ParameterException(cl, "--output " + dir
                    + " already holds files; give an empty or new folder, so no result is overwritten" + orForce);
        }
        if (force) {
            deleteRunFiles(cl, dir);
        }
    }

    /**
     * Refuses a file's place that cannot hold it, before anything is measured or drawn: a folder
     * where the file should be, or a file where one of its folders should be.
     *
     * @param flag        the flag that named the file, as the line says it (-o is --output)
     * @param exampleName a name for the file, offered in the folder it named instead
     */
    public static void requireFilePlace(CommandLine cl, String flag, Path file, String exampleName) {
        if (Files.isDirectory(file)) {
            throw new ParameterException(cl, flag + " " + file + " is a folder; give a file in it, e.g. "
                    + file.resolve(exampleName));
        }
        Path existing = file.toAbsolutePath().normalize().getParent();
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing != null && !Files.isDirectory(existing)) {
            throw new ParameterException(cl, flag + " " + file + " cannot be created: " + existing + " is a file, not a folder");
        }
    }

    /** Creates the folder and proves a file can be written in it: a read-only disk shows here, not after the run. */
    public static void requireWritable(CommandLine cl, Path dir) {
        Path existing = dir.toAbsolutePath().normalize();
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing != null && !Files.isDirectory(existing)) {
            throw new ParameterException(cl, "--output " + dir + " cannot be created: " + existing
                    + " is a file, not a folder");
        }
        try {
            Files.createDirectories(dir);
            // a byte, not an empty file: a full disk still creates one
            Path probe = Files.createTempFile(dir, ".msgbench-write-check", ".tmp");
            try {
                Files.write(probe, new byte[] {'\n'});
            } finally {
                Files.delete(probe);
            }
        } catch (IOException e) {
            throw new ParameterException(cl, "--output " + dir + " cannot be written (" + reason(e)
                    + "); give a folder you can write");
        }
    }

    private static boolean holdsFiles(CommandLine cl, Path dir) {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.findAny().isPresent();
        } catch (IOException e) {
            throw new ParameterException(cl, "--output " + dir + " cannot be read (" + reason(e) + ")");
        }
    }

    /** The files a run writes at the top of its folder: result.json, the interval logs, the marker, the .hgrm files. */
    private static void deleteRunFiles(CommandLine cl, Path dir) {
        List<String> named = List.of(ResultFiles.RESULT_JSON, IntervalLog.FILE_NAME, IntervalLog.COUNTS_FILE_NAME,
                RunningMarker.FILE_NAME);
        try (Stream<Path> entries = Files.list(dir)) {
            for (Path file : entries.toList()) {
                String name = file.getFileName().toString();
                if (Files.isRegularFile(file) && (named.contains(name) || name.endsWith(".hgrm"))) {
                    Files.delete(file);
                }
            }
        } catch (IOException e) {
            throw new ParameterException(cl, "--force: cannot delete the old results in " + dir + " ("
                    + reason(e) + ")");
        }
    }

    private static String reason(IOException e) {
        return FileNotWritten.reason(e);
    }
}
