package dev.msgbench.cli.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.stream.Stream;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;

import dev.msgbench.core.result.ResultFiles;

/**
 * Folders the report reads as one whole, each marked by a file of its own (a sweep's sweep.json,
 * a tune's tune.json), found at or below the folders given.
 */
final class MarkedFolders {

    /** Such a folder is at most this deep below a folder given to report (a folder of sweeps of a workload). */
    private static final int MAX_DEPTH = 3;

    private MarkedFolders() {
    }

    /** The folders at or below {@code dirs} holding {@code marker}, readable or not. */
    static List<Path> below(List<Path> dirs, String marker) {
        List<Path> folders = new ArrayList<>();
        for (Path dir : dirs) {
            if (Files.isDirectory(dir)) { // else the runs' reader names it
                try (Stream<Path> files = Files.walk(dir, MAX_DEPTH)) {
                    files.filter(p -> p.getFileName().toString().equals(marker) && Files.isRegularFile(p)).sorted()
                            .forEach(file -> folders.add(file.getParent()));
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot list " + dir, e);
                }
            }
        }
        return folders;
    }

    /** Each folder as {@code read} makes it; one it cannot read gives null and a line of {@code leftOut}. */
    static <T> List<T> read(List<Path> folders, List<String> leftOut, BiFunction<Path, List<String>, T> reader) {
        List<T> read = new ArrayList<>();
        for (Path folder : folders) {
            T one = reader.apply(folder, leftOut);
            if (one != null) {
                read.add(one);
            }
        }
        return read;
    }

    /**
     * The folder's marker file as JSON (a missing node when the file is empty); null when it is
     * not JSON as msgbench writes it, said in {@code leftOut} with {@code what} the report then
     * leaves out.
     */
    static JsonNode json(Path file, String what, List<String> leftOut) {
        try {
            JsonNode json = ResultFiles.json().readTree(file.toFile());
            // an empty file reads as no tree at all: the caller says what it holds not
            return json == null ? MissingNode.getInstance() : json;
        } catch (JsonProcessingException e) {
            leftOut.add(file + ": not JSON as msgbench writes it (cut short by a full disk or a power cut, or edited?)"
                    + "; left out of the report: " + what);
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }
}
