package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.LongPredicate;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.cli.cell.CellRunner;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.testing.InMemorySystem;

/**
 * A run whose system lost messages it had acknowledged exits with 4, through the real command
 * line and engine (the broker in memory, made to drop what it acknowledged); one whose system
 * promised nothing exits with 0, its losses a result.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AcknowledgedLostExitTest {

    private static final String NL = System.lineSeparator();

    @TempDir
    Path dir;

    private static Function<Io, CellRunner> dropping(LongPredicate sequences) {
        return io -> new InMemoryCellRunner(io, clock -> new InMemorySystem(clock).dropping(sequences));
    }

    private static final String[] E2E = {"e2e", "--system", "loopback", "--rate", "1000", "--duration", "1s",
        "--warmup", "0s", "--drain-timeout", "1s"};

    private CliRun e2e(Function<Io, CellRunner> runner) {
        List<String> args = new java.util.ArrayList<>(List.of(E2E));
        args.addAll(List.of("--output", dir.toString()));
        return CliRun.with(runner, args.toArray(String[]::new));
    }

    @Test
    void e2eExitsWith4WhenTheSystemLostMessagesItHadAcknowledged() throws Exception {
        CliRun run = e2e(dropping(s -> s == 100 || s == 900));

        assertEquals(ExitCode.ACKNOWLEDGED_LOST.code(), run.exitCode, run.toString());
        assertEquals(4, run.exitCode);
        assertTrue(run.out.contains("  **PROMISE BROKEN: acks=all: 2 of 1,000 acknowledged messages lost**" + NL), run.out);
        JsonNode counts = ResultFiles.json().readTree(dir.resolve("result.json").toFile()).get("counts");
        assertEquals(List.of(2L, 0L), List.of(counts.get("acknowledgedLost").asLong(), counts.get("unacknowledgedLost").asLong()));
    }

    @Test
    void e2eExitsWith0WhenTheSystemPromisedNothingWhateverItLost() throws Exception {
        CliRun run = e2e(io -> new InMemoryCellRunner(io, clock -> new InMemorySystem(clock).withoutAcknowledgements(0)
                .dropping(s -> s % 2 == 0)));

        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.contains("  acks=all: nothing was acknowledged, so nothing was promised; 500 of 1,000 messages lost"
                + NL), run.out);
    }

    @Test
    void e2eExitsWith0WhenThePromiseWasKept() {
        assertEquals(0, e2e(dropping(s -> false)).exitCode);
    }

    @Test
    void runExitsWith4WhenNoCellFailedAndOneLostAcknowledgedMessagesAndSaysWhichInItsTable() throws Exception {
        Path workload = Files.writeString(dir.resolve("w.yaml"), """
                name: acknowledged lost
                defaults: {warmup: 0s, duration: 1s, size: 256B}
                cells:
                  - {label: "kept", system: loopback, rate: 100}
                  - {label: "broken", system: loopback, rate: 200}
                table:
                  columns: [sent, lost]
                """);
        // the second cell's system loses its message 150, which it acknowledged
        Function<Io, CellRunner> runner = io -> {
            int[] cells = {0};
            return new InMemoryCellRunner(io, clock -> {
                boolean second = ++cells[0] == 2;
                return new InMemorySystem(clock).dropping(s -> second && s == 150);
            });
        };
        Path out = dir.resolve("out");

        CliRun run = CliRun.with(runner, "run", workload.toString(), "--output", out.toString());

        assertEquals(4, run.exitCode, run.toString());
        assertEquals("cell 2 (broken) lost messages the system had acknowledged (exit code 4); going on with the next" + NL,
                run.err);
        List<String> table = Files.readAllLines(out.resolve("summary.txt"));
        assertEquals("1  kept     100     0  ok", table.get(5));
        assertEquals("2  broken   200     1  ACKNOWLEDGED LOST", table.get(6));
    }

    @Test
    void sweepStopsAtAStepThatLostAcknowledgedMessagesAndExitsWith4() throws Exception {
        CliRun run = CliRun.with(dropping(s -> s == 1_500), "sweep", "--system", "loopback", "--objective", "p99<=5ms",
                "--start-rate", "1000", "--step", "x2", "--max-rate", "8000", "--duration", "1s", "--warmup", "0s",
                "--drain-timeout", "1s", "--output", dir.toString());

        assertEquals(4, run.exitCode, run.toString());
        assertTrue(run.out.contains("  1 acknowledged messages lost (a broken promise)" + NL), run.out);
    }
}
