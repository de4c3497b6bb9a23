package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.cli.cell.CellOutcome;
import dev.msgbench.cli.cell.CellRunner;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.result.Workload;
import dev.msgbench.core.run.Pacing;
import dev.msgbench.core.testing.InMemorySystem;

/**
 * {@code --warmup auto} through the real command line, the engine on a fake clock against an
 * in-memory system: e2e, and the cells of workload files, whose default it is.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WarmupAutoCommandLineTest {

    private static final String NL = System.lineSeparator();

    @TempDir
    Path dir;

    private static CellRunner inMemory(Io io) {
        return new InMemoryCellRunner(io, InMemorySystem::new);
    }

    private Workload workloadOfTheOnlyRun() throws Exception {
        try (Stream<Path> files = Files.walk(dir)) {
            List<Path> results = files.filter(p -> p.getFileName().toString().equals(ResultFiles.RESULT_JSON)).toList();
            assertEquals(1, results.size(), results.toString());
            return ResultFiles.readResult(results.get(0).getParent()).workload();
        }
    }

    @Test
    void e2eWithWarmupAutoMeasuresTheDurationOnceTheSystemSettled() throws Exception {
        CliRun run = CliRun.with(WarmupAutoCommandLineTest::inMemory, "e2e", "--system", "loopback", "--rate", "1000",
                "--warmup", "auto", "--duration", "2s", "--output", dir.toString());

        assertEquals(0, run.exitCode, run.toString());
        Workload w = workloadOfTheOnlyRun();
        assertEquals(List.of("auto", true, 11.0, 2.0), List.of(w.warmup(), w.warmupSettled(), w.warmupSeconds(),
                w.durationSeconds()));
        assertTrue(run.out.contains("for 2 s after 11 s of warm-up (auto: settled)"), run.out);
    }

    @Test
    void autoWithABoundIsParsedIntoTheSchedule() {
        ScriptedCellRunner runner = new ScriptedCellRunner(cell -> CellOutcome.of(ScriptedCellRunner.complete(1000, 1000, 1, 1)));
        CliRun run = CliRun.with(runner, "e2e", "--system", "loopback", "--warmup", "auto:30s", "--output", dir.toString());

        assertEquals(0, run.exitCode, run.toString());
        assertEquals(Pacing.FixedRate.withAutoWarmup(1000, dev.msgbench.core.time.Arrival.UNIFORM, Duration.ofSeconds(30),
                Duration.ofSeconds(10)), runner.calls().get(0).cell().pacing());
    }

    @Test
    void throughputHasNoWarmupToMakeAutomatic() {
        CliRun run = CliRun.of("throughput", "--warmup", "auto");

        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: throughput has no flag '--warmup' (see java -jar bench-all.jar throughput --help)" + NL,
                run.err);
    }

    @Test
    void aWorkloadCellWithoutAWarmupWarmsUpUntilSettledEvenScaledDown() throws Exception {
        Path file = dir.resolve("w.yaml");
        Files.writeString(file, """
                name: w
                defaults: {system: loopback, rate: 1000, duration: 20s}
                cells:
                  - {label: one}
                """);
        Path out = dir.resolve("out");

        CliRun run = CliRun.with(WarmupAutoCommandLineTest::inMemory, "run", file.toString(), "--scale", "0.1",
                "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.contains("--system loopback --rate 1000 --duration 2s --warmup auto" + NL), run.out);
        Workload w = workloadOfTheOnlyRun();
        assertEquals(List.of("auto", true, 11.0, 2.0), List.of(w.warmup(), w.warmupSettled(), w.warmupSeconds(),
                w.durationSeconds()));
    }
}
