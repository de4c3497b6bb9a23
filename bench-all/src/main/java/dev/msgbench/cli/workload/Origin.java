package dev.msgbench.cli.workload;

import dev.msgbench.core.UserError;

/**
 * Where a setting was written, so that every error names it: {@code workloads/e3.yaml:14}, or
 * a flag of the command line such as {@code --set}.
 */
public record Origin(String where) {

    public static Origin line(String file, int line) {
        return new Origin(file + ":" + line);
    }

    /** A one-line error that starts with this origin; the command line prints it and exits 2. */
    public UserError error(String message) {
        return new UserError(where + ": " + message);
    }

    @Override
    public String toString() {
        return where;
    }
}
