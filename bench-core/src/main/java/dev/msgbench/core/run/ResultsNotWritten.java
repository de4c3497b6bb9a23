package dev.msgbench.core.run;

import java.nio.file.Path;
import java.util.List;

import dev.msgbench.core.SettingNames;
import dev.msgbench.core.result.FileNotWritten;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.result.RunResult;

/**
 * A run that ended (complete or not) whose results folder could not take every file: a full disk,
 * most likely. The summary table was printed, so the figures are not lost; every file that could
 * be written is kept. The message is one line: the first file that matters (result.json if it is
 * among them) with the file system's reason, then the others by name.
 */
public final class ResultsNotWritten extends Exception {

    private final transient RunResult result;
    private final transient List<FileNotWritten> files;
    private final transient Path resultsDir;

    /** @param runFailure why the run itself failed, or null when it did not */
    ResultsNotWritten(RunResult result, Path resultsDir, List<FileNotWritten> files, Throwable runFailure) {
        super(message(files), runFailure);
        this.result = result;
        this.resultsDir = resultsDir;
        this.files = List.copyOf(files);
    }

    /** What the run measured, as the summary printed it. */
    public RunResult result() {
        return result;
    }

    public Path resultsDir() {
        return resultsDir;
    }

    public List<FileNotWritten> files() {
        return files;
    }

    /** Why the run itself failed, on one line, its settings named by {@code names}; null when it did not. */
    public String runFailure(SettingNames names) {
        return getCause() == null ? null : LoadRun.oneLine(getCause(), names);
    }

    private static String message(List<FileNotWritten> files) {
        FileNotWritten first = files.stream().filter(f -> f.file().getFileName().toString().equals(ResultFiles.RESULT_JSON))
                .findFirst().orElse(files.get(0));
        List<String> others = files.stream().filter(f -> f != first).map(FileNotWritten::brief).toList();
        return first.getMessage() + (others.isEmpty() ? "" : "; not whole either: " + String.join(", ", others))
                + "; the run's figures are in the summary above";
    }
}
