package dev.msgbench.cli.cell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.cli.CliRun;
import dev.msgbench.cli.ExitCode;
import dev.msgbench.cli.Io;
import dev.msgbench.cli.ScriptedCellRunner;
import dev.msgbench.cli.cell.CellCheck;
import dev.msgbench.cli.cell.CellOutcome;
import dev.msgbench.cli.cell.ParsedCell;
import dev.msgbench.core.run.Pacing;

/** A command line of e2e or throughput and a cell of run, sweep or tune are parsed the one same way. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ParsedCellTest {

    @TempDir
    Path dir;

    private final Io quietIo = new Io(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), false);

    @Test
    void e2eFromTheCommandLineHandsItsRunnerTheCellACellCheckParses() {
        List<String> args = List.of("e2e", "--system", "loopback", "--rate", "500", "--duration", "1s", "--quiet");
        ScriptedCellRunner runner = new ScriptedCellRunner(cell -> new CellOutcome(ExitCode.INTERRUPTED, null, null));

        CliRun run = CliRun.with(runner, concat(args, "--output", dir.toString()).toArray(String[]::new));
        ParsedCell parsed = CellCheck.parse(quietIo, args);

        assertEquals(ExitCode.INTERRUPTED.code(), run.exitCode, "the command exits with its cell's code: " + run);
        ParsedCell given = runner.calls().get(0).cell();
        assertEquals(dir, runner.calls().get(0).outputDir());
        assertEquals(parsed.command(), given.command());
        assertEquals(parsed.system().name(), given.system().name());
        assertEquals(parsed.pacing(), given.pacing());
        assertEquals(parsed.quiet(), given.quiet());
        assertEquals(args, parsed.args());
        assertEquals(concat(args, "--output", dir.toString()), given.args());
    }

    @Test
    void aThroughputCellCarriesItsUnpacedLimits() {
        ParsedCell cell = CellCheck.parse(quietIo, List.of("throughput", "--system", "loopback", "--messages", "500",
                "--max-outstanding", "7"));

        assertEquals("throughput", cell.command());
        assertEquals(new Pacing.Unpaced(500, 7, Duration.ofMinutes(10), false), cell.pacing());
        assertFalse(cell.quiet());
    }

    private static List<String> concat(List<String> args, String... more) {
        List<String> all = new ArrayList<>(args);
        all.addAll(List.of(more));
        return all;
    }
}
