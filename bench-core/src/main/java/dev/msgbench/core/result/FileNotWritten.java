package dev.msgbench.core.result;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * A file of a results folder that could not be written whole, with the file system's reason
 * ("no space left on device"). A full disk must not cost a run its figures: the run's writers
 * give this instead of failing the run, which then ends with its summary printed and every file
 * that could be written kept; a file written at once (result.json, a .hgrm) is then removed, a
 * log written as the run went (latency.hlog, intervals.csv) is kept {@link #cutShort() cut short},
 * its whole lines readable.
 */
public final class FileNotWritten extends UncheckedIOException {

    private final transient Path file;
    private final String reason;
    private final long keptBytes;

    /** @param keptBytes what is kept of it on disk, a log's bytes before the failure; -1 for nothing */
    public FileNotWritten(Path file, IOException cause, long keptBytes) {
        super(line(file, reason(cause), keptBytes), cause);
        this.file = file;
        this.reason = reason(cause);
        this.keptBytes = keptBytes;
    }

    public Path file() {
        return file;
    }

    /** The file system's reason, as {@code strerror} says it: "no space left on device". */
    public String reason() {
        return reason;
    }

    /** Whether a part of it is kept: a log, whose lines before the failure stay readable. */
    public boolean cutShort() {
        return keptBytes >= 0;
    }

    /** How the file is named beside the first one: its name, and where it was cut. */
    public String brief() {
        return file.getFileName() + (cutShort() ? String.format(Locale.US, " (cut short at byte %,d)", keptBytes) : "");
    }

    private static String line(Path file, String reason, long keptBytes) {
        return "cannot write " + file + ": " + reason + (keptBytes < 0 ? ""
                : String.format(Locale.US, " (cut short at byte %,d; what was written before is kept)", keptBytes));
    }

    /** Why a file could not be written or created, in the words a user searches for. */
    public static String reason(IOException e) {
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof NoSuchFileException) {
            // /proc and its like: the parent exists but refuses a new entry
            return "the file system refuses to create it";
        }
        String text = e instanceof FileSystemException fs && fs.getReason() != null ? fs.getReason() : e.getMessage();
        if (text == null || text.isBlank()) {
            return e.getClass().getSimpleName();
        }
        // the JDK passes strerror on as is: "No space left on device"
        return Character.toLowerCase(text.charAt(0)) + text.substring(1);
    }
}
