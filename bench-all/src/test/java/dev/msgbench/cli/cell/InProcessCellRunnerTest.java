package dev.msgbench.cli.cell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.cli.ExitCode;
import dev.msgbench.cli.Io;
import dev.msgbench.cli.cell.CellCheck;
import dev.msgbench.cli.cell.CellOutcome;
import dev.msgbench.cli.cell.InProcessCellRunner;
import dev.msgbench.cli.cell.ParsedCell;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.RunStatus;
import dev.msgbench.core.testing.TakesSeconds;

/** The runner of e2e, throughput, run and sweep: the result in memory, and the files as outputs. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InProcessCellRunnerTest {

    @TempDir
    Path dir;

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final Io io = new Io(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8), false);

    @Test
    @TakesSeconds
    void aCellGivesBackTheResultItAlsoWritesToItsFolder() {
        ParsedCell cell = CellCheck.parse(io, List.of("e2e", "--system", "loopback", "--rate", "500", "--duration", "1s",
                "--warmup", "0s"));

        CellOutcome outcome = new InProcessCellRunner(io).run(cell, dir.resolve("cell"));

        assertEquals(ExitCode.OK, outcome.exitCode(), err.toString(StandardCharsets.UTF_8));
        assertNull(outcome.error());
        RunResult result = outcome.result();
        assertEquals(RunStatus.COMPLETE, result.status());
        assertEquals(500, result.counts().received());
        RunResult written = ResultFiles.readResult(dir.resolve("cell"));
        assertEquals(written.startedAt(), result.startedAt(), "the same run");
        assertEquals(written.latenciesMs().latency(), result.latenciesMs().latency());
        assertTrue(Files.isRegularFile(dir.resolve("cell").resolve("latency.hlog")));
    }

    @Test
    void aCellTheSystemRefusesIsReportedAsTheCommandLineWouldAndMeasuresNothing() {
        ParsedCell cell = CellCheck.parse(io, List.of("e2e", "--system", "nats", "--url", "nats://127.0.0.1:1",
                "--duration", "1s"));

        CellOutcome outcome = new InProcessCellRunner(io).run(cell, dir.resolve("cell"));

        String expected = "--url: no NATS server answered at nats://127.0.0.1:1 within 5 s; check the address, or omit --url "
                + "to start a local server";
        assertEquals(new CellOutcome(ExitCode.USAGE, null, expected), outcome);
        assertEquals("error: " + expected + System.lineSeparator(), err.toString(StandardCharsets.UTF_8));
    }
}
