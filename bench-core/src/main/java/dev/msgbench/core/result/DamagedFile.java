package dev.msgbench.core.result;

import java.nio.file.Path;

import dev.msgbench.core.UserError;

/**
 * A results file that cannot be read as the suite writes it: cut short by a killed run, a full
 * disk or a power cut, or edited by hand. Its message names the file and what is wrong, on one
 * line, as any input the user can fix; a reader that goes on without it (report draws what it
 * can) says what it left out.
 */
public final class DamagedFile extends UserError {

    private final transient Path file;
    private final String leftOut;

    /**
     * @param problem what is wrong, e.g. "truncated at byte 1,234 (...)"
     * @param leftOut what a reader that goes on leaves out, e.g. "its summary and settings"
     */
    public DamagedFile(Path file, String problem, String leftOut) {
        super(file + ": " + problem);
        this.file = file;
        this.leftOut = leftOut;
    }

    public Path file() {
        return file;
    }

    /** For a reader that takes no damaged file: throws it. */
    public static void refuse(DamagedFile e) {
        throw e;
    }

    /** What a reader that goes on without the damaged part leaves out. */
    public String leftOut() {
        return leftOut;
    }
}
