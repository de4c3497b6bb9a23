package dev.msgbench.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;
import java.util.function.ToIntFunction;

import dev.msgbench.cli.cell.CellRunner;

/** Runs the command line in-process and keeps what it printed. */
public final class CliRun {

    public final int exitCode;
    public final String out;
    public final String err;

    private CliRun(int exitCode, String out, String err) {
        this.exitCode = exitCode;
        this.out = out;
        this.err = err;
    }

    public static CliRun of(String... args) {
        return run(io -> Main.run(io, args));
    }

    /** The command line with its measuring commands running their cells with {@code runner}. */
    public static CliRun with(CellRunner runner, String... args) {
        return run(io -> Main.commandLine(io, runner).execute(args));
    }

    /** As {@link #with(CellRunner, String...)}, with a runner that prints where the command line does. */
    public static CliRun with(Function<Io, CellRunner> runner, String... args) {
        return run(io -> Main.commandLine(io, runner.apply(io)).execute(args));
    }

    private static CliRun run(ToIntFunction<Io> commandLine) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = commandLine.applyAsInt(new Io(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), false));
        return new CliRun(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** The last line printed on stderr, with its line end: where a run's one-line error is. */
    public String lastErrLine() {
        String trimmed = err.substring(0, err.length() - System.lineSeparator().length());
        return err.substring(trimmed.lastIndexOf('\n') + 1);
    }

    @Override
    public String toString() {
        return "exit " + exitCode + "\n--- out\n" + out + "--- err\n" + err;
    }
}
